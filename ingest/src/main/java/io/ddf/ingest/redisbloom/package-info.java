/**
 * RedisBloom's semantics over ddf's scaling filters: the BF.* and CF.* commands as RedisBloom 2.4.23 answers them
 * (arguments, bounds, error texts, replies) on {@code io.ddf.engine.scaling}'s chains and cuckoo filters, kept by key
 * in the data directory ({@link io.ddf.ingest.store.ScalingRegistry}). Independent of the daemon's request path:
 * commands come in as byte arrays and answers go out as {@link io.ddf.ingest.redisbloom.Reply} values, which the
 * daemon writes in RESP2 or RESP3.
 */
package io.ddf.ingest.redisbloom;
