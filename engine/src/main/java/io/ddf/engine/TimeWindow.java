package io.ddf.engine;

import io.ddf.engine.spi.DurationText;
import io.ddf.engine.spi.WindowSnapshot;

import java.time.Duration;

/**
 * A filter's window of time ({@link FilterBuilder#window(Duration)}) and what it has done, as
 * {@link DuplicateFilter#timeWindow()} reads it now.
 *
 * <p>The promise, W the window, L the slices, n the capacity and ε the error rate: an element first added when the
 * filter's time was t answers {@link Verdict#DUPLICATE} until the filter's time reaches t + W, provided no more than
 * n new elements are added while the filter's time is within [t, t + W); it is no longer answered (but by a false
 * positive) once the filter's time reaches t + W + W / L; the false positive rate stays at most ε whatever comes. A
 * DUPLICATE verdict does not extend an element's window (as Redis' {@code SET key value NX EX seconds}, not
 * {@code SET ... EX}). When more than n new elements come within a window, the filter forgets the oldest of them
 * early rather than grow or lose its error rate, and counts it ({@link #recycledEarly()}).
 *
 * @param window          W.
 * @param slices          L: a generation turns every W / L or capacity / L new elements, whichever comes first.
 * @param eventTime       whether the filter's time is its elements' (given with each, as Kafka record timestamps),
 *                        rather than the wall clock's.
 * @param filterTimeMillis the latest time the filter acted on (a turn or an expiry), epoch milliseconds; -1 before
 *                        its first call with a time.
 * @param newestGeneration the newest generation.
 * @param oldestGeneration the oldest generation still answered.
 * @param turnsByTime     generations begun because W / L had passed.
 * @param turnsByCount    generations begun because the newest held capacity / L new elements.
 * @param recycledEarly   generations recycled before their window had passed: elements forgotten inside their
 *                        window because more than the capacity came within one (the promise's condition broken).
 * @param expired         generations no longer answered because their window had passed.
 * @param atOpen          what the last open applied of the time that passed while the file was closed.
 */
public record TimeWindow(Duration window, int slices, boolean eventTime, long filterTimeMillis,
    long newestGeneration, long oldestGeneration, long turnsByTime, long turnsByCount, long recycledEarly,
    long expired, AtOpen atOpen)
{
    /**
     * What opening a file applied of the time that passed while it was closed: on the wall clock, the generations
     * whose window ended meanwhile are no longer answered. An event-time filter applies none (its time moves with
     * its elements), nor does a new one.
     *
     * @param expiredGenerations generations the open dropped.
     * @param filterTimeBefore   the filter's time as the file recorded it (its last turn or expiry before the close),
     *                           epoch milliseconds; -1 when it had none.
     * @param appliedTime        the time the open applied, epoch milliseconds; -1 when it applied none.
     */
    public record AtOpen(long expiredGenerations, long filterTimeBefore, long appliedTime)
    {
        /** @return one line for a log: what expired while the file was closed, and since when. */
        public String describe()
        {
            if (appliedTime < 0)
            {
                return "no time applied at open";
            }
            final String since = filterTimeBefore < 0 ? "" : " (the filter's time was " +
                java.time.Instant.ofEpochMilli(filterTimeBefore) + ", " +
                DurationText.format(Math.max(0, appliedTime - filterTimeBefore)) + " before the open)";
            return expiredGenerations + " generation" + (expiredGenerations == 1 ? "" : "s") +
                " expired while closed" + since;
        }
    }

    static TimeWindow of(final WindowSnapshot s)
    {
        return new TimeWindow(Duration.ofMillis(s.windowMillis()), s.slices(), s.eventTime(), s.filterTime(),
            s.newest(), s.oldest(), s.timeTurns(), s.countTurns(), s.recycledEarly(), s.expired(),
            new AtOpen(s.expiredAtOpen(), s.timeBeforeOpen(), s.timeAtOpen()));
    }

    /** @return W / L: how often a generation turns at most, and how late past W an element is forgotten at most. */
    public Duration slice()
    {
        return window.dividedBy(slices);
    }

    /**
     * @param text a duration as Redis and Kafka users write one: a whole number and a unit, {@code 500ms},
     *             {@code 90s}, {@code 15m}, {@code 24h}, {@code 7d}, or several ({@code 1h30m}).
     * @return the duration.
     * @throws IllegalArgumentException naming what is wrong.
     */
    public static Duration parseDuration(final String text)
    {
        return Duration.ofMillis(DurationText.parse(text));
    }

    /**
     * @param duration a duration of whole milliseconds.
     * @return it as {@link #parseDuration} reads it, in the largest units that divide it ({@code 1d12h}).
     */
    public static String format(final Duration duration)
    {
        return DurationText.format(duration.toMillis());
    }
}
