/**
 * The hashing and insertion pipeline (LMAX Disruptor) in front of a {@link io.ddf.engine.DuplicateFilter}.
 *
 * <p>A consumer of the embedder API, above it: depends on the API and on {@code hash} ({@code Mix}), and nothing in
 * the engine depends on it.
 *
 * <p>A handler updates only the rows it owns: the fused handler every row; an inserter the partitions routed to
 * it, in ring order; a filter that is not partitioned belongs wholly to inserter 0. That is exactly the promise of
 * {@code FilterBuilder.singleWriter()} (one thread at a time per partition, handed over with a happens-before edge,
 * which the ring's sequences give): a filter built with it takes its single-writer code path in the handlers'
 * {@code streamHash} (plain loads and release stores, no locked instruction), one built without it the shared path;
 * the verdicts are the same either way, so the pipeline has no switch of its own: the filter's mode decides.
 */
package io.ddf.engine.pipeline;
