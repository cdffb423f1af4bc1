/**
 * The tuner: picks a kind and its shape for a memory budget, or a capacity and an error rate, from the error models.
 *
 * <p>A consumer of the embedder API, above it like {@code pipeline}: depends on the API (to name kinds and build the
 * pick it checks) and on {@code model} (the formulas); nothing in the engine depends on it.
 */
package io.ddf.engine.tune;
