package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;

import java.util.concurrent.atomic.AtomicLongArray;

import static io.ddf.engine.composite.BlockedFifoLayout.READY;

/**
 * The threads claiming stale blocks in each generation slot of a shared blocked fifo-bloom ({@link BlockedFifoCore}),
 * counted so that the rotation which recycles a slot can wait for those still claiming for its previous use: one
 * counter per slot, a line apart from the next. Process memory, not the file's: a killed process leaves no claimer.
 * Owned (single-writer), nothing is counted: the one writer cannot be late for itself.
 */
final class SlotClaims
{
    /** Longs between two slots' counters (128 bytes: the adjacent-line prefetch pairs lines). */
    private static final int PAD = 16;

    /** Null when owned. */
    private final AtomicLongArray counts;
    private final MappedWords state;
    private final int generations;
    /** Test seam, null in production (see {@link BlockedFifoProbe}). */
    private final BlockedFifoProbe probe;

    /**
     * @param generations L, the slots.
     * @param state       the header's state words (READY).
     * @param probe       a test's probe, or null.
     */
    SlotClaims(final int generations, final MappedWords state, final BlockedFifoProbe probe)
    {
        this.counts = state.owned() ? null : new AtomicLongArray(generations * PAD);
        this.state = state;
        this.generations = generations;
        this.probe = probe;
    }

    /**
     * Counts the thread among the slot's claimers (shared mode; a full fence: what it reads next is ordered after the
     * count), then reads READY: past g, the thread is late and is counted out at once. A thread so counted while
     * READY is g holds back the rotation to g + L, which recycles the slot ({@link #awaitFree}); one counted only
     * after that rotation looked finds READY past g.
     *
     * @return whether the thread is counted in (then it calls {@link #leave}).
     */
    boolean enter(final int slot, final long generation)
    {
        if (counts != null)
        {
            counts.getAndIncrement(slot * PAD);
        }
        if (state.getLongVolatile(READY) > generation)
        {
            leave(slot);
            return false;
        }
        return true;
    }

    /** Counts it out. */
    void leave(final int slot)
    {
        if (counts != null)
        {
            counts.getAndDecrement(slot * PAD);
        }
    }

    /** @return whether some thread is counted in the slot's claimers (owned: never). */
    boolean busy(final int slot)
    {
        return counts != null && counts.get(slot * PAD) != 0;
    }

    /**
     * Shared: before g is published, recycling slot g mod L, waits for the threads still claiming blocks of the slot
     * for its previous use (counted while READY was g − L, then stalled inside a claim: in practice none, so this
     * is one read).
     */
    void awaitFree(final long generation)
    {
        final int slot = (int)(generation % generations);
        if (counts == null || counts.get(slot * PAD) == 0)
        {
            return;
        }
        if (probe != null)
        {
            probe.reached(BlockedFifoProbe.Point.ROTATION_WAITS, generation, -1);
        }
        while (counts.get(slot * PAD) != 0)
        {
            Thread.onSpinWait();
        }
    }
}
