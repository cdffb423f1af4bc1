/**
 * The windowed family (sliding-window paper): the exact windowed filter, SHF and CSHF, and the queuing construction
 * ({@link io.ddf.engine.window.QueueDefinition}), which wraps a {@link io.ddf.engine.spi.KindDefinition} it is
 * given and finds again by the code its slots store through the registry lookup it is constructed with.
 *
 * <p>Depends on {@code spi}, {@code memory} and {@code hash} only; neither on another family nor on the API: the
 * queuing construction resolves its subfilters through their definitions, never through the embedder API.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
package io.ddf.engine.window;
