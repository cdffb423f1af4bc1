/**
 * The embedder API, and only it: {@link io.ddf.engine.Filters} builds or opens a filter,
 * {@link io.ddf.engine.DuplicateFilter} judges elements, {@link io.ddf.engine.FilterBuilder},
 * {@link io.ddf.engine.FilterKind}, {@link io.ddf.engine.KindParameter}, {@link io.ddf.engine.FilterParameters},
 * {@link io.ddf.engine.HashAlgorithm}, {@link io.ddf.engine.Verdict}, {@link io.ddf.engine.FilterInfo} and
 * {@link io.ddf.engine.TimeWindow} (a window of time's promise and state) describe it; {@link io.ddf.engine.Operation} names what is done with an element judged later (by the pipeline, or a
 * daemon's inline path).
 *
 * <p>This package sits on top of the engine: it may depend on {@code internal} (the machinery), {@code spi} (the
 * kind definitions behind {@link io.ddf.engine.FilterKind} and {@link io.ddf.engine.FilterParameters}, which no
 * public signature hands out: an embedder sees {@link io.ddf.engine.KindParameter}s) and {@code hash} (the header
 * codes of the hash algorithms). Nothing below may name it: the machinery answers in booleans and header codes, and
 * the package-private {@code MappedDuplicateFilter} adapts it to {@link io.ddf.engine.DuplicateFilter} and
 * {@link io.ddf.engine.Verdict}. That adapter lives here, not in {@code internal}, because a class that implements
 * the API and is built by the API would otherwise make the two packages a cycle. {@code ArchitectureTest} holds
 * every package to this.
 */
package io.ddf.engine;
