package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterClock;
import io.ddf.engine.spi.WindowSnapshot;

import static io.ddf.engine.composite.AgedLayout.COUNT_TURNS;
import static io.ddf.engine.composite.AgedLayout.DEADLINE;
import static io.ddf.engine.composite.AgedLayout.ENDS;
import static io.ddf.engine.composite.AgedLayout.EXPIRED;
import static io.ddf.engine.composite.AgedLayout.LAST_TIME;
import static io.ddf.engine.composite.AgedLayout.LATEST;
import static io.ddf.engine.composite.AgedLayout.LIVE;
import static io.ddf.engine.composite.AgedLayout.PASS_WANTED;
import static io.ddf.engine.composite.AgedLayout.READY;
import static io.ddf.engine.composite.AgedLayout.RECYCLED_EARLY;
import static io.ddf.engine.composite.AgedLayout.START;
import static io.ddf.engine.composite.AgedLayout.STARTED;
import static io.ddf.engine.composite.AgedLayout.TIME_TURNS;

/**
 * The aged cuckoo filter's generations in time: which stamps are live, when each stamp's generation ended, when the
 * next turn or expiry is due (FORMAT-AGED-CUCKOO.md). W the window, T = W / L a slice, S the stamps:
 * <ul>
 *   <li>generation G has stamp (G mod S) + 1; it turns when T has passed since it started (by time, the new start
 *       aligned on T) or when it received c = ⌈n / L⌉ new elements (by count);</li>
 *   <li>a turn from G records END[stamp(G)] = min(start of G + 1, start of G + T): every element of G arrived before
 *       it (a call at or past start + T turns first), and none later than T after the generation's start;</li>
 *   <li>stamp s is live while it is the current one or END[s] + W is after the filter's time: so an element added at
 *       t stays live until at least t + W and is gone by t + W + T.</li>
 * </ul>
 * The live stamps are one word ({@link AgedLayout#LIVE}), read by every lookup after the bucket words it judges
 * (an entry seen was installed after its stamp was made live, so the mask read after it has its bit).
 *
 * <p>Concurrency: the live word changes by compare-and-swap only (a turn adds its stamp, an expiry removes stamps);
 * turns are serial (the ticket of a generation's first element, or a turn by time's claim of it); the other words
 * are written by the turning thread before it publishes the generation, or raised monotonically.
 */
final class AgedStamps
{
    /** END of the stamp of a generation not yet ended (far enough from overflow when W is added). */
    static final long NOT_ENDED = Long.MAX_VALUE / 2;

    private final MappedWords state;
    private final long window;
    private final long slice;
    private final int slices;
    private final int stamps;
    private final FilterClock clock;
    private final boolean eventTime;
    private final Object starting = new Object();
    private volatile long expiredAtOpen;
    private volatile long timeBeforeOpen = -1;
    private volatile long timeAtOpen = -1;

    AgedStamps(final MappedWords state, final long window, final int slices, final int stamps,
        final FilterClock clock)
    {
        this.state = state;
        this.window = window;
        this.slices = slices;
        this.slice = window / slices;
        this.stamps = stamps;
        this.clock = clock;
        this.eventTime = clock == FilterClock.NONE;
    }

    /**
     * @param generation a generation.
     * @param stamps     S.
     * @return its stamp, (G mod S) + 1.
     */
    static int stampOf(final long generation, final int stamps)
    {
        return (int)(generation % stamps) + 1;
    }

    int stampOf(final long generation)
    {
        return stampOf(generation, stamps);
    }

    /** @return the clock's time ({@link FilterClock#NO_TIME} on event time). */
    long now()
    {
        return clock.millis();
    }

    boolean eventTime()
    {
        return eventTime;
    }

    long window()
    {
        return window;
    }

    boolean started()
    {
        return state.getLongVolatile(STARTED) != 0;
    }

    /** @return END[s]. */
    long endOf(final int stamp)
    {
        return state.getLongVolatile(ENDS + stamp);
    }

    /** @return the live stamps as the word holds them. */
    long live()
    {
        return state.getLongVolatile(LIVE);
    }

    /**
     * @return the stamps live at {@code time}, read only (a lookup past the deadline: a filter idle since before an
     *     expiry or a turn holds what it held, minus what time has made absent).
     */
    long liveAt(final long time)
    {
        final long live = live();
        if (!started() || time < state.getLongVolatile(DEADLINE))
        {
            return live;
        }
        final int current = stampOf(state.getLongVolatile(READY));
        long result = live;
        for (long rest = live; rest != 0; rest &= rest - 1)
        {
            final int s = Long.numberOfTrailingZeros(rest);
            final long end = s == current ? state.getLongVolatile(START) + slice : endOf(s);
            if (end + window <= time)
            {
                result &= ~(1L << s);
            }
        }
        return result;
    }

    /** First call with a time: every live generation's end and the current one's start are now. */
    void start(final long time)
    {
        synchronized (starting)
        {
            if (started())
            {
                return;
            }
            final int current = stampOf(state.getLongVolatile(READY));
            for (long rest = live(); rest != 0; rest &= rest - 1)
            {
                final int s = Long.numberOfTrailingZeros(rest);
                if (s != current)
                {
                    state.putLongRelease(ENDS + s, time);
                }
            }
            state.putLongRelease(START, time);
            state.putLongRelease(LAST_TIME, time);
            if (state.getLongVolatile(READY) == 0)
            {
                state.putLongRelease(ENDS, time); // before generation 0, which no stamp names (AgedForgetting)
            }
            state.putLongRelease(STARTED, 1);
            storeDeadline();
        }
    }

    /** @return where a turn by time at {@code time} starts the next generation: T-aligned from the current start. */
    long alignedStart(final long time)
    {
        final long start = state.getLongVolatile(START);
        return start + Math.max(1, (time - start) / slice) * slice;
    }

    /** @return where a turn by count at {@code time} starts the next generation: never before the current start. */
    long countStart(final long time)
    {
        return Math.max(state.getLongVolatile(START), time);
    }

    /** @return when the current generation turns by time. */
    long turnDue()
    {
        return state.getLongVolatile(START) + slice;
    }

    /** Adds a stamp to the live ones. */
    void makeLive(final int stamp)
    {
        StateBits.set(state, LIVE, 1L << stamp);
    }

    /**
     * Removes a stamp from the live ones before its generation's window has passed (a turn must reuse it: more than
     * n new elements came within a window, or the filter has no time). Counted when the filter has a time.
     */
    void expireEarly(final int stamp)
    {
        while (true)
        {
            final long live = live();
            if ((live >>> stamp & 1) == 0)
            {
                return;
            }
            if (state.compareAndSetLong(LIVE, live, live & ~(1L << stamp)))
            {
                if (started())
                {
                    state.getAndAddLong(RECYCLED_EARLY, 1);
                }
                return;
            }
        }
    }

    /**
     * Where generation h − 1 ends at a turn starting h at {@code start}: at the start, or at the latest time an element
     * was given if that is later (a turn by count may come from a call whose time is older than some of the
     * generation's elements'), and never after T from the generation's own start (its elements all came before).
     *
     * @return the end, or 0 when the filter has no time.
     */
    long endAt(final long start)
    {
        return started() ? Math.min(Math.max(start, state.getLongVolatile(LATEST)), state.getLongVolatile(START) +
            slice) : 0;
    }

    /**
     * The turning thread, before it publishes generation h: ends h − 1 at {@code end} ({@link #endAt}, or the end a
     * change log recorded), makes h's stamp live, records h's start and counts the turn.
     */
    void beforePublish(final long h, final long start, final long end, final boolean byTime)
    {
        final boolean timed = started();
        final int previous = stampOf(h - 1);
        if (timed)
        {
            state.putLongRelease(ENDS + previous, end);
        }
        // not ended: an expiry racing this turn (it reads the current stamp as h − 1's) must not drop h's stamp for
        // the end its old generation left
        state.putLongRelease(ENDS + stampOf(h), NOT_ENDED);
        makeLive(stampOf(h));
        state.putLongRelease(START, timed ? start : 0);
        final int counter = byTime ? TIME_TURNS : COUNT_TURNS;
        state.putLongRelease(counter, state.getLongVolatile(counter) + 1);
        if (timed)
        {
            raise(LAST_TIME, start);
        }
    }

    /**
     * Removes the stamps whose window has passed by {@code time} (the current one never: it turns first), then
     * stores when the next turn or expiry is due.
     *
     * @return whether any stamp expired (a sweep pass is then wanted).
     */
    boolean expire(final long time)
    {
        boolean any = false;
        while (true)
        {
            final long live = live();
            final int current = stampOf(state.getLongVolatile(READY));
            long keep = live;
            int count = 0;
            for (long rest = live; rest != 0; rest &= rest - 1)
            {
                final int s = Long.numberOfTrailingZeros(rest);
                if (s != current && endOf(s) + window <= time)
                {
                    keep &= ~(1L << s);
                    count++;
                }
            }
            if (keep == live)
            {
                break;
            }
            if (state.compareAndSetLong(LIVE, live, keep))
            {
                state.getAndAddLong(EXPIRED, count);
                raise(PASS_WANTED, time);
                raise(LAST_TIME, time);
                any = true;
                break;
            }
        }
        storeDeadline();
        return any;
    }

    /** Stores the earliest of the current generation's turn and the live stamps' expiries (a lower bound). */
    void storeDeadline()
    {
        if (!started())
        {
            return;
        }
        final int current = stampOf(state.getLongVolatile(READY));
        long due = turnDue();
        for (long rest = live(); rest != 0; rest &= rest - 1)
        {
            final int s = Long.numberOfTrailingZeros(rest);
            if (s != current)
            {
                due = Math.min(due, endOf(s) + window);
            }
        }
        if (state.getLongVolatile(DEADLINE) != due)
        {
            state.putLongRelease(DEADLINE, due);
        }
    }

    /** Raises the latest time given (see {@link AgedLayout#LATEST}): a read, and a write only when it moves. */
    void given(final long time)
    {
        raise(LATEST, time);
    }

    /** Raises a word to at least {@code value}. */
    void raise(final int word, final long value)
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

    /** @return the filter's time as the state records it (-1 before its first). */
    long filterTime()
    {
        return started() ? state.getLongVolatile(LAST_TIME) : -1;
    }

    /** Records what an open applied: the filter's time before, the time applied, the generations it expired. */
    void opened(final long before, final long at, final long expired)
    {
        timeBeforeOpen = before;
        timeAtOpen = at;
        expiredAtOpen = expired;
    }

    /** @return the window's state and counters. */
    WindowSnapshot snapshot()
    {
        final long newest = state.getLongVolatile(READY);
        long oldest = newest;
        final long live = live();
        for (long g = newest - 1; g >= 0 && g > newest - stamps; g--)
        {
            if ((live >>> stampOf(g) & 1) == 0)
            {
                break;
            }
            oldest = g;
        }
        return new WindowSnapshot(window, slices, eventTime, filterTime(), newest, oldest,
            state.getLongVolatile(TIME_TURNS), state.getLongVolatile(COUNT_TURNS),
            state.getLongVolatile(RECYCLED_EARLY), state.getLongVolatile(EXPIRED), expiredAtOpen, timeBeforeOpen,
            timeAtOpen);
    }
}
