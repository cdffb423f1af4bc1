package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterClock;
import io.ddf.engine.spi.WindowSnapshot;

import static io.ddf.engine.composite.BlockedFifoLayout.COUNT_TURNS;
import static io.ddf.engine.composite.BlockedFifoLayout.DEADLINE;
import static io.ddf.engine.composite.BlockedFifoLayout.EXPIRED;
import static io.ddf.engine.composite.BlockedFifoLayout.LAST_TIME;
import static io.ddf.engine.composite.BlockedFifoLayout.OLDEST;
import static io.ddf.engine.composite.BlockedFifoLayout.READY;
import static io.ddf.engine.composite.BlockedFifoLayout.RECYCLED_EARLY;
import static io.ddf.engine.composite.BlockedFifoLayout.START;
import static io.ddf.engine.composite.BlockedFifoLayout.STARTED;
import static io.ddf.engine.composite.BlockedFifoLayout.TIME_TURNS;

/**
 * The time of a blocked fifo-bloom with a window of time (layout 2.1, {@code FORMAT-FIFO-BLOOM.md}): when each
 * generation started, which are still answered, when the next turn or expiry is due, and the counters. The rotation
 * itself is the core's ({@link BlockedFifoCore}): a turn by time claims the next generation's first ticket as a turn
 * by count does, so that every turn takes the same path, one at a time.
 *
 * <p>The rules, W the window and T = W / L a slice:
 * <ul>
 *   <li>generation g starts at start(g); it turns when T has passed (a turn by time, the new start aligned on T
 *       from start(g), so a jump of the clock across several slices is one turn) or when it holds c new items (a
 *       turn by count, the new start the turning call's time);</li>
 *   <li>g is answered until start(g) + T + W (its expiry), unless the slot it is in is recycled before (by a turn
 *       that reuses it while g is within its window: counted, {@link BlockedFifoLayout#RECYCLED_EARLY});</li>
 *   <li>the filter's time is the latest it was given or read; an element with an older time is judged and added as
 *       of the filter's time (its generation is the newest), and the times a filter records never go backwards.</li>
 * </ul>
 * Every item of g was added before start(g) + T (a call at or past it first turns the generation), so an item added
 * at t is answered until at least t + W unless recycled early; and gone by start(g) + T + W &lt;= t + W + T.
 *
 * <p>Concurrency: the hot path reads {@link BlockedFifoLayout#DEADLINE}, a lower bound of when something is due
 * (stale values are only ever lower, so at worst a call comes here for nothing); everything else is here, off the
 * hot path. OLDEST only grows (a compare-and-swap), the counters are the turning thread's (turns are serial) or
 * added atomically, and the starts are written by the turning thread before it publishes the generation.
 */
final class FifoWindow
{
    /** What a core with a window of time is given: its window, slices and clock. */
    record Spec(long windowMillis, int slices, FilterClock clock, boolean eventTime)
    {
    }

    /** The core's turn by time: claims the generation after {@code newest} and rotates to it, starting at start. */
    @FunctionalInterface
    interface Turner
    {
        void turnByTime(long newest, long start);
    }

    private final MappedWords state;
    private final long window;
    private final long slice;
    private final int slices;
    private final int generations;
    private final FilterClock clock;
    private final boolean eventTime;
    /** Guards the filter's first start (the only step here that writes more than one word for others to read). */
    private final Object starting = new Object();
    private volatile long expiredAtOpen;
    private volatile long timeBeforeOpen = -1;
    private volatile long timeAtOpen = -1;

    /**
     * @param state       the header's state words.
     * @param spec        window, slices and clock.
     * @param generations the slots (2 L).
     */
    FifoWindow(final MappedWords state, final Spec spec, final int generations)
    {
        this.state = state;
        this.window = spec.windowMillis();
        this.slices = spec.slices();
        this.slice = spec.windowMillis() / spec.slices();
        this.generations = generations;
        this.clock = spec.clock();
        this.eventTime = spec.eventTime();
    }

    /** @return the clock's time (event time: {@link FilterClock#NO_TIME}). */
    long now()
    {
        return clock.millis();
    }

    /** @return whether the filter's time has started. */
    boolean started()
    {
        return state.getLongVolatile(STARTED) != 0;
    }

    /** @return when generation g started (its slot's start word: g must be one of the newest L slots' generations). */
    long startOf(final long generation)
    {
        return state.getLongVolatile(START + slot(generation));
    }

    private int slot(final long generation)
    {
        return (int)(generation % generations);
    }

    /** @return when the newest generation turns by time. */
    long turnDue(final long newest)
    {
        return startOf(newest) + slice;
    }

    /** @return where a turn by time at {@code time} starts the next generation: T-aligned from the newest's start. */
    long alignedStart(final long newest, final long time)
    {
        final long start = startOf(newest);
        return start + Math.max(1, (time - start) / slice) * slice;
    }

    /** @return where a turn by count at {@code time} starts the next generation: never before the newest's start. */
    long countStart(final long newest, final long time)
    {
        return Math.max(startOf(newest), time);
    }

    /**
     * First call with a time: the newest generation, and the older ones still answered (an event-time filter may
     * have turned by count before it had a time), start now. Returns once started, by this thread or another.
     */
    void start(final long time)
    {
        synchronized (starting)
        {
            if (started())
            {
                return;
            }
            final long newest = state.getLongVolatile(READY);
            for (long g = Math.max(state.getLongVolatile(OLDEST), newest - generations + 1); g <= newest; g++)
            {
                state.putLongRelease(START + slot(g), time);
            }
            state.putLongRelease(LAST_TIME, time);
            state.putLongRelease(STARTED, 1);
        }
    }

    /**
     * The turning thread, before it publishes generation h (turns are serial): records h's start, counts the turn,
     * and counts the generation r = h − 2L it recycles if r is still answered and ended less than W ago (r ended
     * when r + 1 started, and each of its items came before that): an item added at r's end would be forgotten
     * inside its window. That takes at least n new items within less than W after r ended (FORMAT-FIFO-BLOOM.md),
     * so the count stays 0 while fewer come within any window; it counts only "may have": whether an item of r was
     * in fact that late is not kept (that would be a write per item).
     *
     * @param h      the new generation.
     * @param start  its start.
     * @param byTime whether T had passed (else the newest held c new items).
     */
    void beforePublish(final long h, final long start, final boolean byTime)
    {
        final boolean timed = started();
        final long recycled = h - generations;
        if (timed && recycled >= 0 && recycled >= state.getLongVolatile(OLDEST) &&
            start < startOf(recycled + 1) + window)
        {
            state.putLongRelease(RECYCLED_EARLY, state.getLongVolatile(RECYCLED_EARLY) + 1);
        }
        state.putLongRelease(START + slot(h), timed ? start : 0);
        final int counter = byTime ? TIME_TURNS : COUNT_TURNS;
        state.putLongRelease(counter, state.getLongVolatile(counter) + 1);
        if (timed)
        {
            raise(LAST_TIME, start);
        }
    }

    /** The turning thread, once h is published: generations before h − 2L + 1 are recycled, no longer answered. */
    void afterPublish(final long h)
    {
        raise(OLDEST, h - generations + 1);
        storeDeadline();
    }

    /** @return when generation g stops being answered by time. */
    long expiry(final long generation)
    {
        return startOf(generation) + slice + window;
    }

    /**
     * Drops the generations whose window has passed by {@code time} (the newest never: it turns first) and stores
     * when the next turn or expiry is due. The caller has applied any turn due at {@code time}.
     */
    void expire(final long time)
    {
        while (true)
        {
            final long oldest = state.getLongVolatile(OLDEST);
            final long newest = state.getLongVolatile(READY);
            final long from = visibleFrom(oldest, newest, time);
            if (from <= oldest)
            {
                break;
            }
            if (state.compareAndSetLong(OLDEST, oldest, from))
            {
                state.getAndAddLong(EXPIRED, from - oldest);
                raise(LAST_TIME, time);
                break;
            }
        }
        storeDeadline();
    }

    /**
     * @return the oldest generation answered at {@code time}: from {@code oldest} (or the oldest still in a slot), the
     *     first whose expiry is after it; the newest at the latest. Reads only.
     */
    long visibleFrom(final long oldest, final long newest, final long time)
    {
        long from = Math.max(oldest, newest - generations + 1);
        while (from < newest && expiry(from) <= time)
        {
            from++;
        }
        return from;
    }

    /**
     * @return the oldest generation answered at {@code time}, read only (a lookup past the deadline); the newest + 1
     *     when even the newest's window has passed: a filter idle since before the newest would have turned (no add
     *     came to turn it) holds nothing younger than its turn's due time, so nothing of it is answered.
     */
    long visibleFrom(final long time)
    {
        final long oldest = state.getLongVolatile(OLDEST);
        final long newest = state.getLongVolatile(READY);
        final long from = visibleFrom(oldest, newest, time);
        return from == newest && expiry(newest) <= time ? newest + 1 : from;
    }

    /**
     * Stores the earliest of the newest's turn and the oldest answered generation's expiry. A store racing another
     * can only leave the earlier of the two (both values grow with the state they were read from), so the word stays
     * a lower bound.
     */
    void storeDeadline()
    {
        if (!started())
        {
            return;
        }
        final long oldest = state.getLongVolatile(OLDEST);
        final long newest = state.getLongVolatile(READY);
        long due = turnDue(newest);
        if (oldest < newest)
        {
            due = Math.min(due, expiry(Math.max(oldest, newest - generations + 1)));
        }
        if (state.getLongVolatile(DEADLINE) != due)
        {
            state.putLongRelease(DEADLINE, due);
        }
    }

    /** Sets or clears slot s's bit in STALE (whether lookups must read its block states). */
    void markStale(final int slot, final boolean stale)
    {
        while (true)
        {
            final long mask = state.getLongVolatile(BlockedFifoLayout.STALE);
            final long updated = stale ? mask | 1L << slot : mask & ~(1L << slot);
            if (mask == updated || state.compareAndSetLong(BlockedFifoLayout.STALE, mask, updated))
            {
                return;
            }
        }
    }

    private void raise(final int word, final long value)
    {
        while (true)
        {
            final long current = state.getLongVolatile(word);
            if (current >= value || state.compareAndSetLong(word, current, value))
            {
                return;
            }
        }
    }

    /**
     * What time has made due at {@code time}: the expiry of generations whose window has passed, and a turn by time
     * when W / L has passed since the newest started (one turn, however long ago that was). Off the hot path: a call
     * comes here only when its time reaches DEADLINE.
     */
    void advance(final long time, final Turner turner)
    {
        if (!started())
        {
            start(time);
        }
        while (true)
        {
            expire(time);
            final long newest = state.getLongVolatile(READY);
            if (time < turnDue(newest))
            {
                return;
            }
            turner.turnByTime(newest, alignedStart(newest, time));
        }
    }

    /**
     * An open, after the crash recovery: on the wall clock, applies the time that passed while the file was closed
     * and records what it expired, and since when ({@link #snapshot()}); on event time, nothing.
     */
    void open(final Turner turner)
    {
        if (!started() || eventTime)
        {
            return;
        }
        final long before = filterTime();
        final long expiredBefore = state.getLongVolatile(EXPIRED);
        final long now = now();
        if (now >= state.getLongVolatile(DEADLINE))
        {
            advance(now, turner);
        }
        timeBeforeOpen = before;
        timeAtOpen = now;
        expiredAtOpen = state.getLongVolatile(EXPIRED) - expiredBefore;
    }

    /** @return the filter's time as the state records it (-1 before its first). */
    long filterTime()
    {
        return started() ? state.getLongVolatile(LAST_TIME) : -1;
    }

    /** @return the window's state and counters. */
    WindowSnapshot snapshot()
    {
        final long newest = state.getLongVolatile(READY);
        return new WindowSnapshot(window, slices, eventTime, filterTime(), newest,
            Math.max(state.getLongVolatile(OLDEST), newest - generations + 1), state.getLongVolatile(TIME_TURNS),
            state.getLongVolatile(COUNT_TURNS), state.getLongVolatile(RECYCLED_EARLY), state.getLongVolatile(EXPIRED),
            expiredAtOpen, timeBeforeOpen, timeAtOpen);
    }
}
