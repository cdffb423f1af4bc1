/**
 * Filters that grow, in a mapped file that grows with them ({@link io.ddf.engine.scaling.ChainFile}, over
 * {@code io.ddf.persistence.SegmentedFile}): scaling Bloom filters with RedisBloom's capacity semantics
 * ({@link io.ddf.engine.scaling.BloomChain}: RedisBloom's own layout, bit for bit, or ddf's) and RedisBloom's cuckoo
 * filter ({@link io.ddf.engine.scaling.RedisCuckoo}), so that filters move between RedisBloom and ddf with their
 * dumps and answer alike. The file format: {@code FORMAT-scaling.md} beside these classes.
 *
 * <p>Depends on {@code redisbloom}, {@code memory} and {@code hash}; the daemon uses it directly (these filters
 * take an item's bytes, not a 64-bit hash, so they are not {@code DuplicateFilter}s).
 */
package io.ddf.engine.scaling;
