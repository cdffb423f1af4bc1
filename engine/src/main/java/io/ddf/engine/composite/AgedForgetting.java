package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;

import java.util.function.LongConsumer;

import static io.ddf.engine.composite.AgedLayout.ENDS;
import static io.ddf.engine.composite.AgedLayout.FILL;
import static io.ddf.engine.composite.AgedLayout.FILLS_PER_WORD;
import static io.ddf.engine.composite.AgedLayout.FILL_BITS;
import static io.ddf.engine.composite.AgedLayout.FORGOTTEN;
import static io.ddf.engine.composite.AgedLayout.FORGOTTEN_UNSWEPT;
import static io.ddf.engine.composite.AgedLayout.FULL;
import static io.ddf.engine.composite.AgedLayout.LATEST;
import static io.ddf.engine.composite.AgedLayout.LIVE;
import static io.ddf.engine.composite.AgedLayout.PASS_FORGOTTEN;
import static io.ddf.engine.composite.AgedLayout.READY;
import static io.ddf.engine.composite.AgedLayout.RECYCLED_EARLY;

/**
 * Past the promise (more than n new elements within a window), the aged cuckoo filter forgets its oldest generations
 * early, as a count window does, and keeps its newest elements; without this its live entries would outgrow the
 * n + c its table is sized for, insertions would run to max-kicks, each dropping a live entry at random, at the cost
 * of hundreds of cache misses each (FORMAT-AGED-CUCKOO.md, "Past the promise").
 *
 * <p>The tests, at each turn and a few times within each generation ({@link AgedCuckooCore}): the elements of the
 * ended generations wholly inside the window (each began after now − W: its predecessor ended after it) are at most
 * n, and the elements of all live generations, the current one's included, at most n + c, the table's sizing.
 * Under the promise both hold (at most n elements within W; besides them only the generation spanning now − W, at
 * most c), so it never forgets then (fill levels round down, the bounds too: n and n + c in 127ths of c); past it, the oldest live generations older than the
 * last one ended are forgotten, oldest first, until both hold again: a steady excess keeps the newest ⌊n / c⌋ full
 * generations (the newest n elements when L divides n), and a burst cannot fill the table between two turns. The elements per generation
 * are fill levels in 127ths of c ({@link AgedLayout#FILL}), written by its turn.
 *
 * <p>A forgotten stamp's live bit is cleared first, then it is marked forgotten and unswept: its entries count as
 * free at once, and the sweep's next pass that begins after clears them ({@link AgedSweep}); the turn that reuses it
 * before that sweeps the table itself. Its END stays its generation's end (the test reads it for the generation
 * after). Forgetting is serial (a monitor: it runs at most five times a generation), and each generation forgotten is
 * recorded (AGED_EXPIRE with aux 1): replay forgets what the uncut filter forgot, whatever the threads' order.
 */
final class AgedForgetting
{
    private final MappedWords state;
    private final AgedStamps time;
    private final int stamps;
    /** n in fill units (127ths of c): what the ended generations inside the window may hold. */
    private final long windowBound;
    /** n + c in fill units: the live entries the table is sized for. */
    private final long tableBound;
    private final long perGeneration;

    AgedForgetting(final MappedWords state, final AgedStamps time, final int stamps, final long capacity,
        final long perGeneration)
    {
        this.state = state;
        this.time = time;
        this.stamps = stamps;
        this.perGeneration = perGeneration;
        this.windowBound = capacity * FULL / perGeneration;
        this.tableBound = (capacity + perGeneration) * FULL / perGeneration;
    }

    /** At a turn to h, by the turning thread: h − 1's fill level from its elements, and h's cleared. */
    void turned(final long h, final long previous)
    {
        if (h > 0)
        {
            setFill(time.stampOf(h - 1), (int)(Math.min(Math.max(previous, 0), perGeneration) * FULL / perGeneration));
        }
        setFill(time.stampOf(h), 0);
    }

    /**
     * The test (see the class comment) with generation h current, holding {@code current} elements so far, and the
     * forgetting it calls for.
     *
     * @param forgot told each generation forgotten, oldest first (to record it).
     * @return the generations forgotten.
     */
    synchronized int forgetPastPromise(final long h, final long current, final LongConsumer forgot)
    {
        if (!time.started())
        {
            return 0;
        }
        // now: the latest time given (an insertion raises it before its ticket), or the turn's, if later; the
        // filter's time alone lags inside a generation (only turns and expiries raise it)
        final long from = Math.max(time.filterTime(), state.getLongVolatile(LATEST)) - time.window();
        final long oldest = Math.max(0, h - stamps + 1);
        final long live = time.live();
        long inside = 0;
        long all = Math.min(current, perGeneration) * FULL / perGeneration;
        for (long g = oldest; g < h; g++)
        {
            if ((live >>> time.stampOf(g) & 1) != 0)
            {
                final int fill = fill(time.stampOf(g));
                all += fill;
                inside += inside(g, oldest, from) ? fill : 0;
            }
        }
        int forgotten = 0;
        for (long g = oldest; g < h - 1 && (inside > windowBound || all > tableBound); g++)
        {
            final boolean counted = inside(g, oldest, from);
            final int fill = fill(time.stampOf(g));
            if (forget(g))
            {
                forgotten++;
                inside -= counted ? fill : 0;
                all -= fill;
                forgot.accept(g);
            }
        }
        return forgotten;
    }

    /**
     * Forgets generation g if it is still live (its stamp not reused since): replay's, from its record.
     *
     * @return whether it was forgotten now.
     */
    synchronized boolean forget(final long g)
    {
        if (g <= state.getLongVolatile(READY) - stamps)
        {
            return false; // its stamp is another generation's now
        }
        final int stamp = time.stampOf(g);
        while (true)
        {
            final long live = state.getLongVolatile(LIVE);
            if ((live >>> stamp & 1) == 0)
            {
                return false;
            }
            if (state.compareAndSetLong(LIVE, live, live & ~(1L << stamp)))
            {
                StateBits.set(state, FORGOTTEN, 1L << stamp);
                StateBits.set(state, FORGOTTEN_UNSWEPT, 1L << stamp); // after the live bit: a pass that takes it in begins after
                state.getAndAddLong(RECYCLED_EARLY, 1);
                return true;
            }
        }
    }

    /**
     * @return -1 when the stamp was not forgotten early since its last reuse, 0 when it was and no completed pass has
     *     begun since (entries may remain), 1 when it was and one has.
     */
    int forgottenState(final int stamp)
    {
        if ((state.getLongVolatile(FORGOTTEN) >>> stamp & 1) == 0)
        {
            return -1;
        }
        return (int)(~state.getLongVolatile(FORGOTTEN_UNSWEPT) >>> stamp & 1);
    }

    /** A turn reuses the stamp: it is no longer forgotten. */
    void reused(final int stamp)
    {
        StateBits.clear(state, FORGOTTEN_UNSWEPT, 1L << stamp);
        StateBits.clear(state, PASS_FORGOTTEN, 1L << stamp);
        StateBits.clear(state, FORGOTTEN, 1L << stamp);
    }

    /**
     * @return whether every element of g came after {@code from}: g − 1 (its stamp not reused) ended after it, or g is
     *     the first generation and the filter's first time (END[0], {@link AgedStamps#start}) is after it.
     */
    private boolean inside(final long g, final long oldest, final long from)
    {
        if (g == 0)
        {
            return state.getLongVolatile(ENDS) > from;
        }
        return g > oldest && time.endOf(time.stampOf(g - 1)) > from;
    }

    /** @return stamp s's fill level. */
    int fill(final int stamp)
    {
        final int i = stamp - 1;
        return (int)(state.getLongVolatile(FILL + i / FILLS_PER_WORD) >>> (FILL_BITS * (i % FILLS_PER_WORD)) & FULL);
    }

    /** Stores stamp s's fill level: by the turning thread only (turns are serial). */
    private void setFill(final int stamp, final int level)
    {
        final int i = stamp - 1;
        final int word = FILL + i / FILLS_PER_WORD;
        final int shift = FILL_BITS * (i % FILLS_PER_WORD);
        final long old = state.getLongVolatile(word);
        final long now = old & ~((long)FULL << shift) | (long)level << shift;
        if (now != old)
        {
            state.putLongRelease(word, now);
        }
    }
}
