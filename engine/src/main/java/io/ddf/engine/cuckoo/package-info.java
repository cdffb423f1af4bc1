/**
 * The streaming cuckoo filter (QHT paper, footnote 4): bounded relocations, narrow and wide bucket layouts.
 *
 * <p>Depends on {@code spi}, {@code memory} and {@code hash} only; neither on another family nor on the API.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
package io.ddf.engine.cuckoo;
