/**
 * RedisBloom's semantics over ddf's scaling filters: the BF.* and CF.* commands as RedisBloom 2.4.23 answers them
 * (arguments, bounds, error texts, replies) on {@code io.ddf.engine.scaling}'s chains and cuckoo filters, kept by key
 * in the data directory ({@link io.ddf.ingest.store.ScalingRegistry}). Each of BF.RESERVE, BF.INSERT, CF.RESERVE and
 * CF.INSERT/CF.INSERTNX is parsed here once, for every layout and for ddf's fixed-size filters too
 * ({@link io.ddf.ingest.redisbloom.ReserveRequest} with ddf's {@link io.ddf.ingest.redisbloom.ReserveOptions},
 * {@link io.ddf.ingest.redisbloom.InsertRequest}, {@link io.ddf.ingest.redisbloom.CuckooReserveRequest},
 * {@link io.ddf.ingest.redisbloom.CuckooInsertRequest}), with RedisBloom's error texts
 * ({@link io.ddf.ingest.redisbloom.Errors}). Independent of the connection: commands come in as byte arrays and
 * answers go out as the reply values of {@code io.ddf.ingest.resp} ({@code Replies}), which the daemon's one writer
 * writes in RESP2 or RESP3.
 */
package io.ddf.ingest.redisbloom;
