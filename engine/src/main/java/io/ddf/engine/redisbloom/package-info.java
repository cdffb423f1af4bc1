/**
 * RedisBloom's formats, as facts: how RedisBloom 2.4 sizes a Bloom layer ({@link io.ddf.engine.redisbloom.BloomLink}),
 * the header chunks its {@code BF.SCANDUMP} and {@code CF.SCANDUMP} begin with
 * ({@link io.ddf.engine.redisbloom.BloomChainHeader}, {@link io.ddf.engine.redisbloom.CuckooHeader}) and where each
 * data chunk of a dump belongs ({@link io.ddf.engine.redisbloom.DumpChunks}). Pure computation over bytes: the
 * mapped filters that hold such layers live in {@code scaling}. Format notes: {@code FORMAT-redisbloom.md} beside
 * these classes.
 *
 * <p>A bottom layer beside {@code hash}: depends on no other engine package.
 */
package io.ddf.engine.redisbloom;
