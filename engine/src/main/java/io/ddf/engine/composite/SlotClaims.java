package io.ddf.engine.composite;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The threads claiming stale blocks in each generation slot of a shared blocked fifo-bloom ({@link BlockedFifoCore}),
 * counted so that the rotation which recycles a slot can wait for those still claiming for its previous use: one
 * counter per slot, a line apart from the next. Process memory, not the file's: a killed process leaves no claimer.
 */
final class SlotClaims
{
    /** Longs between two slots' counters (128 bytes: the adjacent-line prefetch pairs lines). */
    private static final int PAD = 16;

    private final AtomicLongArray counts;

    /** @param generations L, the slots. */
    SlotClaims(final int generations)
    {
        this.counts = new AtomicLongArray(generations * PAD);
    }

    /** Counts the calling thread in (a full fence: what it reads next is ordered after the count). */
    void enter(final int slot)
    {
        counts.getAndIncrement(slot * PAD);
    }

    /** Counts it out. */
    void leave(final int slot)
    {
        counts.getAndDecrement(slot * PAD);
    }

    /** @return whether some thread is counted in. */
    boolean busy(final int slot)
    {
        return counts.get(slot * PAD) != 0;
    }
}
