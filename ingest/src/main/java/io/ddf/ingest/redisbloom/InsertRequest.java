package io.ddf.ingest.redisbloom;

import io.ddf.ingest.resp.RespError;
import io.netty.buffer.ByteBuf;

/**
 * {@code BF.INSERT key [CAPACITY c] [ERROR e] [EXPANSION n] [NOCREATE] [NONSCALING] ITEMS item...}, parsed once for
 * every layout as RedisBloom 2.4.23's {@code BFInsert_RedisCommand} reads it: each option by its first letter (and
 * ERROR from EXPANSION by the second, NOCREATE from NONSCALING by the third), {@code Unknown argument received} for
 * any other, then {@code Bad argument received} for a value out of range, with RedisBloom's texts in its order.
 * The options are checked whether or not the key exists (RedisBloom then ignores them).
 *
 * @param key        the key.
 * @param capacity   CAPACITY's value, or null when not given (the daemon's default for a missing key).
 * @param errorRate  ERROR's value, or null when not given.
 * @param expansion  EXPANSION's value, or null when not given ({@link ReserveRequest#DEFAULT_EXPANSION}).
 * @param noCreate   whether NOCREATE was given: a missing key is refused ({@link Errors#NOT_FOUND}).
 * @param nonScaling whether NONSCALING was given.
 * @param firstItem  the index of the first item; every argument from there on is one.
 */
public record InsertRequest(String key, Long capacity, Double errorRate, Long expansion, boolean noCreate,
    boolean nonScaling, int firstItem)
{
    /**
     * @param args BF.INSERT's arguments, its name first (at least 4: the command table checks that).
     * @return the request.
     * @throws RespError RedisBloom's error.
     */
    public static InsertRequest parse(final ByteBuf[] args)
    {
        Long capacity = null;
        Double errorRate = null;
        Long expansion = null;
        boolean noCreate = false;
        boolean nonScaling = false;
        int items = -1;
        int at = 2;
        while (at < args.length && items < 0)
        {
            final ByteBuf word = args[at];
            switch (Arguments.charAt(word, 0))
            {
                case 'i' -> items = ++at;
                case 'e' ->
                {
                    if (++at == args.length)
                    {
                        throw RespError.wrongArity("bf.insert");
                    }
                    if (Arguments.charAt(word, 1) == 'r')
                    {
                        errorRate = Arguments.real(args[at++]);
                        if (errorRate == null)
                        {
                            throw new RespError(Errors.INSERT_BAD_ERROR_RATE);
                        }
                    }
                    else
                    {
                        expansion = Arguments.integer(args[at++]);
                        if (expansion == null)
                        {
                            throw new RespError(Errors.INSERT_BAD_EXPANSION);
                        }
                    }
                }
                case 'c' ->
                {
                    if (++at == args.length)
                    {
                        throw RespError.wrongArity("bf.insert");
                    }
                    capacity = Arguments.integer(args[at++]);
                    if (capacity == null)
                    {
                        throw new RespError(Errors.CAPACITY_NOT_A_NUMBER);
                    }
                }
                case 'n' ->
                {
                    if (Arguments.charAt(word, 2) == 'c')
                    {
                        noCreate = true;
                    }
                    else
                    {
                        nonScaling = true;
                    }
                    at++;
                }
                default -> throw new RespError(Errors.UNKNOWN_ARGUMENT);
            }
        }
        if (items < 0 || items == args.length)
        {
            throw RespError.wrongArity("bf.insert");
        }
        if (errorRate != null && (errorRate <= 0 || errorRate >= 1) || capacity != null && capacity < 1 ||
            expansion != null && expansion < 1)
        {
            throw new RespError(Errors.BAD_ARGUMENT);
        }
        return new InsertRequest(Arguments.text(args[1]), capacity, errorRate, expansion, noCreate, nonScaling,
            items);
    }

    /**
     * @param fallback the daemon's capacity of a filter made for a missing key.
     * @return CAPACITY's value, or the fallback.
     */
    public long capacityOr(final long fallback)
    {
        return capacity != null ? capacity : fallback;
    }

    /**
     * @param fallback the daemon's error rate of a filter made for a missing key.
     * @return ERROR's value, or the fallback.
     */
    public double errorRateOr(final double fallback)
    {
        return errorRate != null ? errorRate : fallback;
    }

    /** @return the expansion a chain is made with: RedisBloom's low 32 bits of the one given, or its default. */
    public int chainExpansion()
    {
        return expansion == null ? ReserveRequest.DEFAULT_EXPANSION : (int)(long)expansion;
    }
}
