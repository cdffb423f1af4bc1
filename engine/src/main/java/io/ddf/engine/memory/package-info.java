/**
 * Shared mapped-memory primitives: {@link io.ddf.engine.memory.MappedWords}, 64-bit words of a mapped region with
 * the memory ordering in each method's name and long indexes past 2 GiB.
 *
 * <p>The bottom layer: depends on no other engine package.
 */
package io.ddf.engine.memory;
