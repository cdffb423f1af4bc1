/** HdrHistogram latency runs: single {@code stream} calls, the pipeline's publish-to-verdict time, the timer. */
package io.ddf.bench.latency;
