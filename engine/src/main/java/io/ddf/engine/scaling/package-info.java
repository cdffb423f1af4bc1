/**
 * Filters that grow, in a mapped file that grows with them ({@link io.ddf.engine.scaling.ChainFile}, over
 * {@code io.ddf.persistence.SegmentedFile}): RedisBloom's scaling Bloom filter
 * ({@link io.ddf.engine.scaling.RedisBloomChain}) and its cuckoo filter ({@link io.ddf.engine.scaling.RedisCuckoo}),
 * each answering bit for bit as RedisBloom does, so that filters move between RedisBloom and ddf with their dumps.
 * The file format: {@code FORMAT-scaling.md} beside these classes.
 *
 * <p>Depends on {@code redisbloom}, {@code memory} and {@code hash}; the daemon uses it directly (these filters
 * take an item's bytes, not a 64-bit hash, so they are not {@code DuplicateFilter}s).
 */
package io.ddf.engine.scaling;
