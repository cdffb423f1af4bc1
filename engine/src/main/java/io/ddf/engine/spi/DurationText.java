package io.ddf.engine.spi;

import java.util.Locale;

/**
 * Durations as Redis and Kafka users write them: a whole number and a unit, {@code 500ms}, {@code 90s}, {@code 15m},
 * {@code 24h}, {@code 7d} (and sums, {@code 1h30m}); what a windowed filter shows of its window.
 */
public final class DurationText
{
    private static final long SECOND = 1000;
    private static final long MINUTE = 60 * SECOND;
    private static final long HOUR = 60 * MINUTE;
    private static final long DAY = 24 * HOUR;
    private static final long[] UNITS = {DAY, HOUR, MINUTE, SECOND, 1};
    private static final String[] NAMES = {"d", "h", "m", "s", "ms"};

    private DurationText()
    {
    }

    /**
     * @param millis a duration in milliseconds, at least 0.
     * @return it in the largest units that divide it, e.g. {@code 36h} as {@code 1d12h}, {@code 90000} as
     *     {@code 1m30s}, 0 as {@code 0ms}.
     */
    public static String format(final long millis)
    {
        if (millis <= 0)
        {
            return millis + "ms";
        }
        final StringBuilder text = new StringBuilder();
        long rest = millis;
        for (int i = 0; i < UNITS.length; i++)
        {
            if (rest >= UNITS[i])
            {
                text.append(rest / UNITS[i]).append(NAMES[i]);
                rest %= UNITS[i];
            }
        }
        return text.toString();
    }

    /**
     * @param text a duration: one or more of a whole number followed by {@code ms}, {@code s}, {@code m}, {@code h}
     *             or {@code d} (any case), e.g. {@code 24h}, {@code 1h30m}.
     * @return its milliseconds.
     * @throws IllegalArgumentException naming what is wrong, when the text is no such duration or overflows.
     */
    public static long parse(final String text)
    {
        final String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.isEmpty())
        {
            throw new IllegalArgumentException("a duration is empty: give e.g. 90s, 15m, 24h or 7d");
        }
        long total = 0;
        int i = 0;
        while (i < s.length())
        {
            final int digits = i;
            while (i < s.length() && Character.isDigit(s.charAt(i)))
            {
                i++;
            }
            final int unitStart = i;
            while (i < s.length() && Character.isLetter(s.charAt(i)))
            {
                i++;
            }
            if (digits == unitStart || unitStart == i)
            {
                throw new IllegalArgumentException("'" + text + "' is not a duration: give a whole number and a unit " +
                    "(ms, s, m, h or d), e.g. 90s, 15m, 24h, 7d");
            }
            final long unit = unit(s.substring(unitStart, i), text);
            try
            {
                total = Math.addExact(total, Math.multiplyExact(Long.parseLong(s.substring(digits, unitStart)), unit));
            }
            catch (final ArithmeticException | NumberFormatException e)
            {
                throw new IllegalArgumentException("duration '" + text + "' is too long", e);
            }
        }
        return total;
    }

    private static long unit(final String name, final String text)
    {
        for (int i = 0; i < NAMES.length; i++)
        {
            if (NAMES[i].equals(name))
            {
                return UNITS[i];
            }
        }
        throw new IllegalArgumentException("'" + text + "': unknown unit '" + name + "' (ms, s, m, h or d)");
    }
}
