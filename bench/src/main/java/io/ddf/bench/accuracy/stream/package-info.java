/**
 * The element streams the accuracy harness feeds its filters: synthetic (uniform, Zipf) and recorded ones, named by
 * a {@link io.ddf.bench.accuracy.stream.StreamSpec}. Cut out of {@code io.ddf.bench.accuracy} when the window-memory
 * comparison took that package past issue 28's bound of 30 files.
 */
package io.ddf.bench.accuracy.stream;
