/**
 * The Bloom family: Bloom, Stable Bloom, the sampling filters of seed 003 (RSBF, BSBF, BSBFSD, RLBSBF) and the aging
 * filters A2 and BDBF.
 *
 * <p>Depends on {@code spi}, {@code memory} and {@code hash} only; neither on another family nor on the API.
 */
package io.ddf.engine.bloom;
