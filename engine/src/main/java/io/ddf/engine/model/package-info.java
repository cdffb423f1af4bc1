/**
 * The error models: closed forms of what a filter of given parameters answers on a stream drawn uniformly from an
 * alphabet (false positive and false negative rates, occupancy, forgetting), from the papers' analyses and the
 * engine's own derivations, each class naming its source. Plain formulas over numbers: no memory, no files.
 *
 * <p>Independent of the rest of the engine either way: it depends on nothing in {@code io.ddf.engine}, and only the
 * tuner ({@code tune}) and the composite kinds' sizing ({@code composite}) use it. {@code ArchitectureTest} holds it
 * to this.
 */
package io.ddf.engine.model;
