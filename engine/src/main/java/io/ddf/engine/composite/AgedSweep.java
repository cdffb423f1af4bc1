package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.SeqLock;
import io.ddf.engine.spi.TimedCore;

import java.util.function.BooleanSupplier;

import static io.ddf.engine.composite.AgedLayout.CLEARED;
import static io.ddf.engine.composite.AgedLayout.CURSOR;
import static io.ddf.engine.composite.AgedLayout.LAST_TIME;
import static io.ddf.engine.composite.AgedLayout.FORGOTTEN_UNSWEPT;
import static io.ddf.engine.composite.AgedLayout.PASS_FORGOTTEN;
import static io.ddf.engine.composite.AgedLayout.PASS_START;
import static io.ddf.engine.composite.AgedLayout.PASS_WANTED;
import static io.ddf.engine.composite.AgedLayout.WORD_SLOTS;
import static io.ddf.engine.composite.AgedLayout.SLOT_BITS;
import static io.ddf.engine.composite.AgedLayout.SLOT_MASK;
import static io.ddf.engine.composite.AgedLayout.SWEEPING;
import static io.ddf.engine.composite.AgedLayout.SWEPT_BEFORE;
import static io.ddf.engine.composite.AgedLayout.TURN_SWEEPS;

/**
 * The aged cuckoo filter's sweep: clears the slots whose stamp is no longer live, so that a turn can reuse a stamp
 * without the entries of its old generation coming back (FORMAT-AGED-CUCKOO.md). Passes over the table's words in
 * order (a slot never spans two, so one compare-and-swap clears a word whole, whatever the words per bucket),
 * in bounded steps: {@link #STEP_WORDS} words per step from the filter's deferred work ({@link TimedCore#doDeferredWork}),
 * a few per insertion. A pass records the filter's time when it started; once complete, every stamp whose window
 * had passed by then is gone from the table ({@link AgedLayout#SWEPT_BEFORE}). A turn whose stamp is not yet clean
 * sweeps the whole table itself, under the table lock ({@link #sweepAll}): the rare case.
 *
 * <p>Why a pass's start takes the table lock: a relocation (under that lock) reads the live stamps once it holds it,
 * so one that began before an expiry and could carry an expired entry into a bucket the pass has swept has ended
 * before the pass starts. A step clears a slot by a compare-and-swap of the word read, judging liveness by the live
 * stamps read after the word (an entry seen was installed after its stamp was live).
 */
final class AgedSweep
{
    /** Words per deferred-work step (8 KiB of table: a few microseconds). */
    static final int STEP_WORDS = 1024;

    private final MappedWords state;
    private final MappedWords table;
    private final SeqLock lock;
    /** The table's words. */
    private final long words;
    private final long stampMask;
    /** Whether a pass wanted may begin now ({@link AgedCuckooCore#passDue}); a pass begun always runs to its end. */
    private final BooleanSupplier due;
    private volatile Runnable wake;

    AgedSweep(final MappedWords state, final MappedWords table, final SeqLock lock, final long words,
        final int stampBits, final BooleanSupplier due)
    {
        this.state = state;
        this.table = table;
        this.lock = lock;
        this.words = words;
        this.stampMask = (1L << stampBits) - 1;
        this.due = due;
    }

    void wakeWith(final Runnable runnable)
    {
        this.wake = runnable;
        if (runnable != null && wanted())
        {
            runnable.run();
        }
    }

    /** Tells the deferred-work thread, if any, that a pass is wanted. */
    void wake()
    {
        final Runnable w = wake;
        if (w != null)
        {
            w.run();
        }
    }

    /** @return whether a pass is under way, or an expiry since the last completed pass's start wants one now. */
    boolean wanted()
    {
        return state.getLongVolatile(CURSOR) != 0 || passWanted() && due.getAsBoolean();
    }

    /** @return whether an expiry or a forgotten stamp since the last completed pass's start wants a new pass. */
    private boolean passWanted()
    {
        return state.getLongVolatile(SWEPT_BEFORE) < state.getLongVolatile(PASS_WANTED) ||
            state.getLongVolatile(FORGOTTEN_UNSWEPT) != 0;
    }

    /**
     * @param endPlusWindow when a stamp's old generation's window passed (END + W).
     * @return whether a completed pass started at or after it: no entry of that generation is left.
     */
    boolean clean(final long endPlusWindow)
    {
        return endPlusWindow <= state.getLongVolatile(SWEPT_BEFORE);
    }

    /**
     * A step of the sweep, if one is wanted and no other thread is sweeping.
     *
     * @param count words to sweep at most.
     * @return words swept, 0 when another thread holds the sweep, or {@link TimedCore#NO_DEFERRED_WORK}.
     */
    long step(final int count)
    {
        if (!wanted())
        {
            return TimedCore.NO_DEFERRED_WORK;
        }
        if (!state.compareAndSetLong(SWEEPING, 0, 1))
        {
            return 0;
        }
        try
        {
            long cursor = state.getLongVolatile(CURSOR);
            if (cursor == 0)
            {
                if (!passWanted() || !due.getAsBoolean())
                {
                    return TimedCore.NO_DEFERRED_WORK;
                }
                beginPass();
                cursor = 1;
            }
            final long from = cursor - 1;
            final long to = Math.min(words, from + count);
            long cleared = 0;
            for (long b = from; b < to; b++)
            {
                cleared += clearExpired(b);
            }
            if (cleared > 0)
            {
                state.getAndAddLong(CLEARED, cleared);
            }
            if (to == words)
            {
                raiseSweptBefore(state.getLongVolatile(PASS_START));
                // the stamps forgotten before the pass began are clean (a stamp reused since has left PASS_FORGOTTEN)
                StateBits.clear(state, FORGOTTEN_UNSWEPT, state.getLongVolatile(PASS_FORGOTTEN));
                state.putLongRelease(CURSOR, 0);
            }
            else
            {
                state.putLongRelease(CURSOR, to + 1);
            }
            return to - from;
        }
        finally
        {
            state.putLongRelease(SWEEPING, 0);
        }
    }

    /** Starts a pass at the filter's time, once no relocation is under way (see the class comment). */
    private void beginPass()
    {
        while (true)
        {
            final long version = lock.readBeginAcquire();
            if (lock.tryLockAcquire(version))
            {
                state.putLongRelease(PASS_START, state.getLongVolatile(LAST_TIME));
                // under the lock: a relocation that read a forgotten stamp live has finished
                state.putLongRelease(PASS_FORGOTTEN, state.getLongVolatile(FORGOTTEN_UNSWEPT));
                lock.unlockUnchangedRelease(version + 1);
                return;
            }
        }
    }

    private void raiseSweptBefore(final long value)
    {
        while (true)
        {
            final long current = state.getLongVolatile(SWEPT_BEFORE);
            if (current >= value || state.compareAndSetLong(SWEPT_BEFORE, current, value))
            {
                return;
            }
        }
    }

    /**
     * Clears the slots of a table word whose stamp is not live.
     *
     * @return slots cleared.
     */
    long clearExpired(final long index)
    {
        while (true)
        {
            final long word = table.getLongVolatile(index);
            if (word == 0)
            {
                return 0;
            }
            final long live = state.getLongVolatile(AgedLayout.LIVE);
            long kept = word;
            int cleared = 0;
            for (int i = 0; i < WORD_SLOTS; i++)
            {
                final int shift = i * SLOT_BITS;
                final long slot = word >>> shift & SLOT_MASK;
                if (slot != 0 && (live >>> (slot & stampMask) & 1) == 0)
                {
                    kept &= ~(SLOT_MASK << shift);
                    cleared++;
                }
            }
            if (cleared == 0 || table.compareAndSetLong(index, word, kept))
            {
                return cleared;
            }
        }
    }

    /**
     * A turn's sweep of the whole table, under the table lock held by the caller, after the stamp it reuses was made
     * not live: afterwards no slot holds a stamp that is not live.
     */
    void sweepAll()
    {
        long cleared = 0;
        for (long w = 0; w < words; w++)
        {
            cleared += clearExpired(w);
        }
        state.getAndAddLong(CLEARED, cleared);
        state.getAndAddLong(TURN_SWEEPS, 1);
        StateBits.clear(state, FORGOTTEN_UNSWEPT, state.getLongVolatile(FORGOTTEN_UNSWEPT)); // every stamp not live is gone
    }

    /** Replay's clearing of every entry of one stamp (single-threaded: the filter is not yet open to calls). */
    void clearStamp(final int stamp)
    {
        for (long w = 0; w < words; w++)
        {
            final long word = table.getLongVolatile(w);
            long kept = word;
            for (int i = 0; i < WORD_SLOTS; i++)
            {
                final int shift = i * SLOT_BITS;
                final long slot = word >>> shift & SLOT_MASK;
                if (slot != 0 && (slot & stampMask) == stamp)
                {
                    kept &= ~(SLOT_MASK << shift);
                }
            }
            if (kept != word)
            {
                table.putLongRelease(w, kept);
            }
        }
    }

}
