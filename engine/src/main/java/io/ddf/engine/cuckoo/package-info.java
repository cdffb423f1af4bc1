/**
 * The streaming cuckoo filter (seed 000, footnote 4): bounded relocations, narrow and wide bucket layouts.
 *
 * <p>Depends on {@code spi}, {@code memory} and {@code hash} only; neither on another family nor on the API.
 */
package io.ddf.engine.cuckoo;
