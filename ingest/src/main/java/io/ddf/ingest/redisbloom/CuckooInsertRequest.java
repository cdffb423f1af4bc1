package io.ddf.ingest.redisbloom;

import io.ddf.ingest.resp.RespError;
import io.netty.buffer.ByteBuf;

/**
 * {@code CF.INSERT key [CAPACITY c] [NOCREATE] ITEMS item...} (and CF.INSERTNX), parsed once for every layout as
 * RedisBloom 2.4.23's {@code CFInsert_RedisCommand} reads it: each option by its first letter, {@code Unknown
 * argument received} for any other, the capacity checked against two buckets as soon as it is read.
 *
 * @param key       the key.
 * @param capacity  CAPACITY's value, or null when not given (the daemon's default for a missing key).
 * @param noCreate  whether NOCREATE was given: a missing key is refused ({@link Errors#NOT_FOUND}).
 * @param firstItem the index of the first item; every argument from there on is one.
 */
public record CuckooInsertRequest(String key, Long capacity, boolean noCreate, int firstItem)
{
    /**
     * @param args CF.INSERT's or CF.INSERTNX's arguments, its name first (at least 4: the command table checks that).
     * @return the request.
     * @throws RespError RedisBloom's error.
     */
    public static CuckooInsertRequest parse(final ByteBuf[] args)
    {
        final String name = Arguments.text(args[0]).toLowerCase(java.util.Locale.ROOT);
        Long capacity = null;
        boolean noCreate = false;
        int items = -1;
        int at = 2;
        while (at < args.length && items < 0)
        {
            switch (Arguments.charAt(args[at], 0))
            {
                case 'c' ->
                {
                    if (++at == args.length)
                    {
                        throw RespError.wrongArity(name);
                    }
                    capacity = Arguments.integer(args[at++]);
                    if (capacity == null)
                    {
                        throw new RespError(Errors.CAPACITY_NOT_A_NUMBER);
                    }
                    if (2L * CuckooReserveRequest.DEFAULT_BUCKET_SIZE > capacity)
                    {
                        throw new RespError(Errors.CAPACITY_BELOW_BUCKETS);
                    }
                }
                case 'i' -> items = ++at;
                case 'n' ->
                {
                    noCreate = true;
                    at++;
                }
                default -> throw new RespError(Errors.UNKNOWN_ARGUMENT);
            }
        }
        if (items < 0 || items == args.length)
        {
            throw RespError.wrongArity(name);
        }
        return new CuckooInsertRequest(Arguments.text(args[1]), capacity, noCreate, items);
    }

    /**
     * @param fallback the daemon's capacity of a cuckoo filter made for a missing key.
     * @return CAPACITY's value, or the fallback.
     */
    public long capacityOr(final long fallback)
    {
        return capacity != null ? capacity : fallback;
    }
}
