package io.ddf.ingest.redisbloom;

import io.ddf.ingest.resp.RespError;
import io.netty.buffer.ByteBuf;

import java.time.Duration;

/**
 * {@code APBF.RESERVE key COUNT|TIME error capacity [time_span]}, and its first form {@code APBF.RESERVE key error
 * capacity} (a count filter), as the age-partitioned Bloom filter proposal of RedisBloom (pull request 291,
 * docs/APBF_Commands.md, never merged) documents and its module reads them, with its error texts: {@code error} is
 * the precision, an integer 1 to 5 (3: an error rate of 0.001), {@code capacity} at least 64, {@code time_span} in
 * seconds, needed by TIME.
 *
 * <p>What maps: a TIME filter is ddf's fifo-bloom with a window of time of {@code time_span} seconds (BF.RESERVE's
 * {@code WINDOW}), remembering each item for the span after its first add while at most {@code capacity} new items
 * come within a span; a COUNT filter is ddf's count-based fifo-bloom of {@code capacity} items (the newest
 * {@code capacity} remembered). What does not: the proposal's level (its {@code l} slices, fixed at 3 by its module)
 * is the fifo-bloom's own sizing; a time span given to a COUNT filter, which the proposal's module reads and ignores,
 * is refused here rather than ignored.
 *
 * @param key       the key.
 * @param time      whether TIME (a window of time) rather than COUNT.
 * @param precision the error's precision, 1 to 5.
 * @param capacity  at least {@link #LEAST_CAPACITY}.
 * @param window    TIME's span, or null for COUNT.
 */
public record ApbfReserveRequest(String key, boolean time, int precision, long capacity, Duration window)
{
    /** The proposal's least capacity (its module asserts capacity > l, and l is at most 63). */
    public static final long LEAST_CAPACITY = 64;
    /** The proposal's error texts. */
    public static final String BAD_ERROR = "APBF: invalid error";
    /** The proposal's refusal of a capacity. */
    public static final String BAD_CAPACITY = "APBF: invalid capacity or less than 64";
    /** The proposal's refusal of a time span. */
    public static final String BAD_SPAN = "APBF: invalid time span";
    /** The proposal's refusal of TIME without a span. */
    public static final String NO_SPAN = "Time span for time filter is 0 or missing";
    /** The proposal's refusal of a type other than COUNT or TIME. */
    public static final String BAD_TYPE = "Invalid type for APBF";
    /** The proposal's refusal of an existing key. */
    public static final String EXISTS = "APBF: key already exists";
    /** The proposal's refusal of a missing key (APBF.ADD, APBF.EXISTS, APBF.INFO). */
    public static final String MISSING = "APBF: key does not exist";

    /**
     * @param args APBF.RESERVE's arguments, its name first (at least 4: the command table checks that).
     * @return the request.
     * @throws RespError the proposal's error, or ddf's for what does not map.
     */
    public static ApbfReserveRequest parse(final ByteBuf[] args)
    {
        final boolean typed = Arguments.is(args[2], "COUNT") || Arguments.is(args[2], "TIME");
        if (!typed && Arguments.integer(args[2]) == null)
        {
            throw new RespError(BAD_TYPE);
        }
        final int first = typed ? 3 : 2;
        if (args.length < first + 2 || args.length > first + 3 || !typed && args.length != 4)
        {
            throw RespError.wrongArity("apbf.reserve");
        }
        final boolean time = typed && Arguments.is(args[2], "TIME");
        final Long precision = Arguments.integer(args[first]);
        if (precision == null || precision < 1 || precision > 5)
        {
            throw new RespError(BAD_ERROR);
        }
        final Long capacity = Arguments.integer(args[first + 1]);
        if (capacity == null || capacity < LEAST_CAPACITY)
        {
            throw new RespError(BAD_CAPACITY);
        }
        final boolean spanGiven = args.length == first + 3;
        Duration window = null;
        if (spanGiven)
        {
            final Long span = Arguments.integer(args[first + 2]);
            if (span == null || span < 0)
            {
                throw new RespError(BAD_SPAN);
            }
            if (!time)
            {
                throw new RespError("ERR APBF.RESERVE COUNT takes no time span (a count filter forgets by count): " +
                    "APBF.RESERVE key TIME error capacity seconds makes a window of time");
            }
            window = span == 0 ? null : Duration.ofSeconds(span);
        }
        if (time && window == null)
        {
            throw new RespError(NO_SPAN);
        }
        return new ApbfReserveRequest(Arguments.text(args[1]), time, (int)(long)precision, capacity, window);
    }

    /** @return the error rate the precision means: 10^-precision. */
    public double errorRate()
    {
        return Math.pow(10, -precision);
    }
}
