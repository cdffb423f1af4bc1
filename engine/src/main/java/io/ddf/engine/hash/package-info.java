/**
 * Hashing: {@link io.ddf.engine.hash.ElementHasher} (an element in any of its forms to 64 bits, XXH3 or keyed
 * SipHash-2-4, by the header's algorithm code), {@code SipHash24}, {@code Utf8}, and
 * {@link io.ddf.engine.hash.Mix} (the re-mixing every family and the pipeline use).
 *
 * <p>A bottom layer beside {@code memory}: depends on no other engine package. It is not part of {@code internal}
 * because the families use {@code Mix} and {@code internal} (the kind registry) depends on the families: putting
 * hashing there would make {@code internal} and every family a cycle.
 */
package io.ddf.engine.hash;
