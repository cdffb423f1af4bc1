/**
 * The hashing and insertion pipeline (LMAX Disruptor) in front of a {@link io.ddf.engine.DuplicateFilter}.
 *
 * <p>A consumer of the embedder API, above it: depends on the API and on {@code hash} ({@code Mix}), and nothing in
 * the engine depends on it.
 */
package io.ddf.engine.pipeline;
