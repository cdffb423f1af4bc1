/**
 * The quotient family (seed 000 and seed 004): QHT, QHTD and QQHTD ({@link io.ddf.engine.quotient.QuotientCore}
 * over a {@link io.ddf.engine.quotient.TableLayout}), SQF beside them through the same definition, and DSQF
 * ({@link io.ddf.engine.quotient.DynamicSqfCore}, a pool of buckets shared by all rows). Its file layout is in
 * {@code FORMAT-QUOTIENT.md} here.
 *
 * <p>Depends on {@code spi}, {@code memory} and {@code hash} only; neither on another family nor on the API.
 */
package io.ddf.engine.quotient;
