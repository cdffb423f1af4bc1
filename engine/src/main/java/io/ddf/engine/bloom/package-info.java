/**
 * The Bloom family: Bloom, Stable Bloom, the sampling filters of the sampling Bloom filters paper (RSBF, BSBF, BSBFSD,
 * RLBSBF) and the aging filters A2 and BDBF.
 *
 * <p>Depends on {@code spi}, {@code memory} and {@code hash} only; neither on another family nor on the API.
 *
 * <p>The sampling Bloom filters paper: S. K. Bera, S. Dutta, A. Narang and S. Bhattacherjee, "Advanced Bloom Filter
 * Based Algorithms for Efficient Approximate Data De-Duplication in Streams", 2012 (arXiv:1212.3964).
 */
package io.ddf.engine.bloom;
