package io.ddf.ingest.redisbloom;

import io.ddf.engine.FilterKind;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.ScalingRegistry.Layout;
import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ddf's own options of BF.RESERVE, beside RedisBloom's: {@code KIND name} (a scaling layout, {@value #KIND_DDF} or
 * {@value #KIND_REDISBLOOM}, or one of ddf's fixed-size kinds), {@code SEED n}, {@code KEYED}, and a fixed-size
 * kind's parameters as {@code NAME VALUE} ({@code GENERATIONS 4}, {@code MAX-KICKS 500}: the names
 * {@link FilterKind#options()} lists), and {@code WINDOW seconds [SLICES L]}: a window of time, which makes a
 * fifo-bloom that remembers each item for the window after its first add (as long as at most the capacity of new
 * items come within a window) and forgets it by window + window / L. {@link ReserveRequest} takes them out of the
 * command before it reads the rest as RedisBloom does, and BF.RESERVE's options are read nowhere else: a new option of
 * ddf's is one more component here and one more case of {@link Reader#take}; the daemon's
 * {@code commands.redisbloom.FixedSizeReserve} turns these options into a fixed-size filter's builder.
 *
 * @param kind       the {@code KIND} given, or null.
 * @param seed       the {@code SEED} given, or null.
 * @param keyed      whether {@code KEYED} was given.
 * @param parameters a fixed-size kind's parameters, lower-case names and their values as given, in order.
 * @param window     the {@code WINDOW} given, or null.
 * @param slices     the {@code SLICES} given (with a window), or null.
 */
public record ReserveOptions(String kind, Long seed, boolean keyed, List<Map.Entry<String, String>> parameters,
    Duration window, Long slices)
{
    /** BF.RESERVE's {@code KIND} of ddf's chain of blocked layers (a filter that grows). */
    public static final String KIND_DDF = "scaling";
    /** BF.RESERVE's {@code KIND} of RedisBloom's own layout (a filter that grows). */
    public static final String KIND_REDISBLOOM = "redisbloom";
    /** None given. */
    public static final ReserveOptions NONE = new ReserveOptions(null, null, false, List.of(), null, null);

    /**
     * @param window a window of time (serve --default-window), or null.
     * @return the options of a filter made on first use with that window: NONE without one.
     */
    public static ReserveOptions window(final Duration window)
    {
        return window == null ? NONE : new ReserveOptions(null, null, false, List.of(), window, null);
    }

    /**
     * @param text a window as BF.RESERVE's {@code WINDOW} and {@code serve --default-window} take it: a whole number
     *             of seconds, or a duration with its unit ({@code 500ms}, {@code 90s}, {@code 15m}, {@code 24h},
     *             {@code 7d}).
     * @return the window.
     * @throws IllegalArgumentException naming what is wrong: not a time, or not positive.
     */
    public static Duration windowOf(final String text)
    {
        final Duration window;
        if (!text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9'))
        {
            final long seconds;
            try
            {
                seconds = Long.parseLong(text);
            }
            catch (final NumberFormatException e)
            {
                throw new IllegalArgumentException("'" + text + "' seconds is too long a window");
            }
            window = Duration.ofSeconds(seconds);
        }
        else if (text.startsWith("-"))
        {
            throw new IllegalArgumentException("a window of time is positive, got " + text);
        }
        else
        {
            window = io.ddf.engine.TimeWindow.parseDuration(text);
        }
        if (window.isZero())
        {
            throw new IllegalArgumentException("a window of time is positive, got " + text);
        }
        return window;
    }

    /** @return the scaling layout {@code KIND} names, or null (none given, or a fixed-size kind). */
    public Layout scalingLayout()
    {
        return layoutOf(kind);
    }

    /** @return whether any option asks for one of ddf's fixed-size kinds (a {@code KIND} of one, or any other). */
    public boolean fixedSize()
    {
        return kind != null ? layoutOf(kind) == null : seed != null || keyed || !parameters.isEmpty() ||
            window != null;
    }

    /**
     * @param name a {@code KIND} value.
     * @return the scaling layout it names, or null.
     */
    static Layout layoutOf(final String name)
    {
        return KIND_DDF.equalsIgnoreCase(name) ? Layout.DDF : KIND_REDISBLOOM.equalsIgnoreCase(name) ?
            Layout.REDISBLOOM : null;
    }

    /** The options of one command, as they are taken out of it. */
    static final class Reader
    {
        private String kind;
        private Long seed;
        private boolean keyed;
        private final List<Map.Entry<String, String>> parameters = new ArrayList<>();
        private Duration window;
        private Long slices;
        /** ddf's error for the first option it refuses, thrown after RedisBloom's own checks ({@link #options}). */
        private String refusal;

        /**
         * @param args the command.
         * @param at   the index of an argument after the capacity.
         * @return how many arguments from {@code at} are one of ddf's options (with its value), 0 for none.
         */
        int take(final ByteBuf[] args, final int at)
        {
            final String word = Arguments.text(args[at]).toLowerCase(Locale.ROOT);
            if (word.equals("keyed"))
            {
                keyed = true;
                return 1;
            }
            final boolean named = word.equals("kind") || word.equals("seed") || word.equals("window") ||
                word.equals("slices") || FilterKind.options().containsKey(word);
            if (!named)
            {
                return 0;
            }
            if (at + 1 >= args.length)
            {
                refuse("ERR syntax error: " + word + " needs a value");
                return 1;
            }
            final String value = Arguments.text(args[at + 1]);
            switch (word)
            {
                case "kind" -> kind = value;
                case "seed" ->
                {
                    final Long given = Arguments.integer(args[at + 1]);
                    if (given == null)
                    {
                        refuse("ERR bad seed");
                    }
                    seed = given;
                }
                case "window" -> window(value);
                case "slices" ->
                {
                    final Long given = Arguments.integer(args[at + 1]);
                    if (given == null || given < 1)
                    {
                        refuse("ERR SLICES must be a whole number at least 1 (the window's slices: an item is " +
                            "forgotten by window + window / SLICES), got '" + value + "'");
                    }
                    slices = given;
                }
                default -> parameters.add(Map.entry(word, value));
            }
            return 2;
        }

        private void window(final String value)
        {
            try
            {
                window = windowOf(value);
            }
            catch (final IllegalArgumentException e)
            {
                refuse("ERR WINDOW must be a positive whole number of seconds, or a time with its unit (90s, 15m, " +
                    "24h, 7d): " + e.getMessage());
            }
        }

        private void refuse(final String error)
        {
            refusal = refusal == null ? error : refusal;
        }

        /**
         * @return the options taken.
         * @throws RespError ddf's refusal of one of them: a missing value, a bad seed, or a fixed-size kind's
         *                   option beside {@code KIND} of a layout that grows.
         */
        ReserveOptions options()
        {
            if (refusal != null)
            {
                throw new RespError(refusal);
            }
            if (slices != null && window == null)
            {
                throw new RespError("ERR SLICES goes with WINDOW: BF.RESERVE key error_rate capacity WINDOW seconds " +
                    "SLICES L (a count-based fifo-bloom takes GENERATIONS L)");
            }
            if (kind == null && seed == null && !keyed && parameters.isEmpty() && window == null)
            {
                return NONE;
            }
            if (layoutOf(kind) != null && window != null)
            {
                throw new RespError("ERR KIND " + kind.toLowerCase(Locale.ROOT) + " makes a filter that grows, " +
                    "which has no window of time: WINDOW makes a fifo-bloom (leave KIND out, or KIND fifo-bloom)");
            }
            if (layoutOf(kind) != null && (seed != null || keyed || !parameters.isEmpty()))
            {
                throw new RespError("ERR KIND " + kind.toLowerCase(Locale.ROOT) + " makes a filter that grows: " +
                    "SEED, KEYED and a kind's parameters are for ddf's fixed-size kinds");
            }
            return new ReserveOptions(kind, seed, keyed, List.copyOf(parameters), window, slices);
        }
    }
}
