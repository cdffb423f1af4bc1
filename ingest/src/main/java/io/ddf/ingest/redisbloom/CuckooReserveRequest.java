package io.ddf.ingest.redisbloom;

import io.ddf.ingest.resp.RespError;
import io.netty.buffer.ByteBuf;

/**
 * {@code CF.RESERVE key capacity [BUCKETSIZE b] [MAXITERATIONS m] [EXPANSION e]}, parsed once for every layout as
 * RedisBloom 2.4.23 reads it: an odd number of arguments, the capacity, then each option wherever it is (a word
 * RedisBloom does not know is ignored, as there), each value checked against RedisBloom's bounds with its texts,
 * then the capacity against the buckets. RedisBloom's cuckoo filter ({@link CuckooSemantics#reserve}) and ddf's
 * streaming one (the daemon's CF.* commands under {@code --past-capacity forget}) are made from this value.
 *
 * @param key           the key.
 * @param capacity      at least twice the bucket size.
 * @param bucketSize    in [1, 255].
 * @param maxIterations in [1, 65535].
 * @param expansion     EXPANSION's value in [0, 32768], or null when not given ({@link #DEFAULT_EXPANSION}).
 */
public record CuckooReserveRequest(String key, long capacity, int bucketSize, int maxIterations, Long expansion)
{
    /** RedisBloom's capacity of a cuckoo filter made on first use. */
    public static final long DEFAULT_CAPACITY = 1024;
    /** RedisBloom's slots per bucket. */
    public static final int DEFAULT_BUCKET_SIZE = 2;
    /** RedisBloom's kicks before an insertion gives up. */
    public static final int DEFAULT_MAX_ITERATIONS = 20;
    /** RedisBloom's growth of a cuckoo filter. */
    public static final int DEFAULT_EXPANSION = 1;

    /**
     * @param args CF.RESERVE's arguments, its name first (at least 3: the command table checks that).
     * @return the request.
     * @throws RespError RedisBloom's error.
     */
    public static CuckooReserveRequest parse(final ByteBuf[] args)
    {
        if (args.length % 2 == 0)
        {
            throw RespError.wrongArity("cf.reserve");
        }
        final Long capacity = Arguments.integer(args[2]);
        if (capacity == null)
        {
            throw new RespError(Errors.CAPACITY_NOT_A_NUMBER);
        }
        if (Arguments.indexOf(args, 3, "WINDOW") >= 0)
        {
            // RedisBloom ignores a word it does not know; a window asked of a cuckoo filter is refused, not ignored
            throw new RespError("ERR WINDOW: a cuckoo filter has no window of time (it forgets by count, if at all); " +
                "BF.RESERVE key error_rate capacity WINDOW seconds makes a Bloom filter with one");
        }
        final long iterations = option(args, "MAXITERATIONS", DEFAULT_MAX_ITERATIONS, 1, 65535);
        final long bucketSize = option(args, "BUCKETSIZE", DEFAULT_BUCKET_SIZE, 1, 255);
        final boolean expands = Arguments.indexOf(args, 1, "EXPANSION") >= 0;
        final long expansion = option(args, "EXPANSION", DEFAULT_EXPANSION, 0, 32768);
        if (bucketSize * 2 > capacity)
        {
            throw new RespError(Errors.CAPACITY_BELOW_BUCKETS);
        }
        return new CuckooReserveRequest(Arguments.text(args[1]), capacity, (int)bucketSize, (int)iterations,
            expands ? expansion : null);
    }

    /** @return the expansion: the one given, or RedisBloom's default. */
    public int expansionOrDefault()
    {
        return expansion == null ? DEFAULT_EXPANSION : (int)(long)expansion;
    }

    private static long option(final ByteBuf[] args, final String name, final long fallback, final long min,
        final long max)
    {
        final int at = Arguments.indexOf(args, 1, name);
        if (at < 0)
        {
            return fallback;
        }
        final Long value = at + 1 < args.length ? Arguments.integer(args[at + 1]) : null;
        if (value == null)
        {
            throw new RespError(Errors.cannotParse(name));
        }
        if (value < min || value > max)
        {
            throw new RespError(Errors.outOfRange(name, min, max));
        }
        return value;
    }
}
