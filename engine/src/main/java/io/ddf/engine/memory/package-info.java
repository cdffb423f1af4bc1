/**
 * Shared mapped-memory primitives: {@link io.ddf.engine.memory.MappedWords}, 64-bit words of a mapped region with
 * the memory ordering in each method's name and long indexes past 2 GiB. A region is shared (compare-and-swap and
 * atomic add are locked instructions) or owned (single-writer mode: the same methods are plain loads and release
 * stores), so every kind's core runs in either mode unchanged.
 *
 * <p>The bottom layer: depends on no other engine package.
 */
package io.ddf.engine.memory;
