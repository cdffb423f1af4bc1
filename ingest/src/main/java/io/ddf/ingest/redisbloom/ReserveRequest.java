package io.ddf.ingest.redisbloom;

import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.ScalingRegistry.Layout;
import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code BF.RESERVE key error_rate capacity [EXPANSION n] [NONSCALING]} and ddf's own options ({@link ReserveOptions}:
 * {@code KIND}, {@code SEED}, {@code KEYED}, a kind's {@code NAME VALUE}, {@code WINDOW seconds [SLICES L]}), parsed
 * once for every layout: the filters
 * that grow ({@link BloomSemantics#reserve}) and ddf's fixed-size kinds (their sizing, in the daemon's BF.* commands)
 * are made from this value, never from the words again.
 *
 * <p>ddf's options are taken out first; the rest is read as RedisBloom 2.4.23's {@code BFReserve_RedisCommand} reads
 * it, with its error texts in its order: at most 7 arguments, the error rate, the capacity, then NONSCALING and
 * EXPANSION wherever they are (the word after EXPANSION is its value whatever it says). A word RedisBloom does not know
 * is ignored, as there, unless the request is for one of ddf's fixed-size kinds ({@link #ignored}).
 *
 * @param key        the key.
 * @param errorRate  in (0, 1).
 * @param capacity   at least 1.
 * @param nonScaling whether NONSCALING was given.
 * @param expansion  EXPANSION's value, or null when not given (RedisBloom's default, {@link #DEFAULT_EXPANSION}).
 * @param ddf        ddf's own options.
 * @param ignored    the words RedisBloom ignores (neither its options nor ddf's), in order: a request for one of
 *                   ddf's fixed-size kinds refuses them, as it refuses any parameter its kind does not take.
 */
public record ReserveRequest(String key, double errorRate, long capacity, boolean nonScaling, Long expansion,
    ReserveOptions ddf, List<String> ignored)
{
    /** RedisBloom's expansion of a chain when none is given. */
    public static final int DEFAULT_EXPANSION = 2;
    /** RedisBloom's most arguments of BF.RESERVE, its name included. */
    private static final int MOST_ARGUMENTS = 7;

    /**
     * @param args BF.RESERVE's arguments, its name first (at least 4: the command table checks that).
     * @return the request.
     * @throws RespError RedisBloom's error for what RedisBloom refuses, then ddf's for its own options.
     */
    public static ReserveRequest parse(final ByteBuf[] args)
    {
        final ReserveOptions.Reader ddf = new ReserveOptions.Reader();
        final List<ByteBuf> redisBloom = new ArrayList<>(List.of(args).subList(0, Math.min(4, args.length)));
        for (int i = 4; i < args.length; i++)
        {
            if (Arguments.is(args[i], "EXPANSION"))
            {
                redisBloom.add(args[i]);
                if (i + 1 < args.length)
                {
                    redisBloom.add(args[++i]); // its value, even a word that names a ddf option
                }
                continue;
            }
            final int taken = ddf.take(args, i);
            if (taken == 0)
            {
                redisBloom.add(args[i]);
            }
            i += Math.max(0, taken - 1);
        }
        final ByteBuf[] own = redisBloom.toArray(new ByteBuf[0]);
        if (own.length < 4 || own.length > MOST_ARGUMENTS)
        {
            throw RespError.wrongArity("bf.reserve");
        }
        final Double errorRate = Arguments.real(own[2]);
        if (errorRate == null)
        {
            throw new RespError(Errors.BAD_ERROR_RATE);
        }
        if (errorRate >= 1 || errorRate <= 0)
        {
            throw new RespError(Errors.ERROR_RATE_RANGE);
        }
        final Long capacity = Arguments.integer(own[3]);
        if (capacity == null)
        {
            throw new RespError(Errors.BAD_CAPACITY);
        }
        if (capacity <= 0)
        {
            throw new RespError(Errors.CAPACITY_NOT_POSITIVE);
        }
        final boolean nonScaling = Arguments.indexOf(own, 1, "NONSCALING") >= 0;
        final int at = Arguments.indexOf(own, 1, "EXPANSION");
        if (at + 1 == own.length)
        {
            throw new RespError(Errors.NO_EXPANSION);
        }
        Long expansion = null;
        if (at >= 0)
        {
            if (nonScaling)
            {
                throw new RespError(Errors.CANNOT_EXPAND);
            }
            expansion = Arguments.integer(own[at + 1]);
            if (expansion == null)
            {
                throw new RespError(Errors.BAD_EXPANSION);
            }
        }
        final List<String> ignored = new ArrayList<>();
        for (int i = 4; i < own.length; i++)
        {
            if (!Arguments.is(own[i], "NONSCALING") && i != at && i != at + 1)
            {
                ignored.add(Arguments.text(own[i]));
            }
        }
        return new ReserveRequest(Arguments.text(args[1]), errorRate, capacity, nonScaling, expansion, ddf.options(),
            List.copyOf(ignored));
    }

    /** @return the expansion a chain is made with: RedisBloom's low 32 bits of the one given, or its default. */
    public int chainExpansion()
    {
        return expansion == null ? DEFAULT_EXPANSION : (int)(long)expansion;
    }

    /**
     * @param scaleByDefault whether a key without a {@code KIND} gets a filter that grows ({@code --past-capacity
     *                       scale}, the default).
     * @param serverLayout   the layout of such a filter ({@code --scaling-layout}).
     * @return the layout of the filter that grows this request makes, or null when it asks for one of ddf's
     *         fixed-size kinds: a {@code KIND} of one, or any other ddf option, or no {@code KIND} under
     *         {@code --past-capacity forget}.
     */
    public Layout scalingLayout(final boolean scaleByDefault, final Layout serverLayout)
    {
        final Layout named = ddf.scalingLayout();
        if (named != null)
        {
            return named;
        }
        return ddf.fixedSize() || !scaleByDefault ? null : serverLayout;
    }
}
