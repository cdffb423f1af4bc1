/**
 * The quotient family (the QHT paper and the SQF paper): QHT, QHTD and QQHTD ({@link io.ddf.engine.quotient.QuotientCore}
 * over a {@link io.ddf.engine.quotient.TableLayout}), SQF beside them through the same definition, and DSQF
 * ({@link io.ddf.engine.quotient.DynamicSqfCore}, a pool of buckets shared by all rows). Its file layout is in
 * {@code FORMAT-QUOTIENT.md} here.
 *
 * <p>Depends on {@code spi}, {@code memory} and {@code hash} only; neither on another family nor on the API.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 *
 * <p>The SQF paper: S. Dutta, A. Narang and S. K. Bera, "Streaming Quotient Filter: A Near Optimal Approximate
 * Duplicate Detection Approach for Data Streams", PVLDB 6(8), 2013.
 */
package io.ddf.engine.quotient;
