package io.ddf.engine.composite;

import io.ddf.engine.bloom.BlockedBloom;
import io.ddf.engine.changelog.KindOps;
import io.ddf.engine.spi.FilterClock;

import static io.ddf.engine.composite.BlockedFifoLayout.INSERTIONS;
import static io.ddf.engine.composite.BlockedFifoLayout.READY;

/**
 * fifo-bloom's change-log records replayed onto the table as a power cut left it (FORMAT-LOG.md: FIFO_ADD,
 * FIFO_TURN): a turn publishes the generations the image lacks, at the recorded start and cause (by count or by
 * time, layout 2.1), and clears the recycled slot; an add raises the ticket count, turns to its generation, and sets
 * the item's bits in that generation's slot while it is live. Exact for every live generation: every element of one
 * is present, and the generations live are the uncut filter's. (What a killed process left half done is
 * {@link FifoRecovery}'s, run before any replay.)
 */
final class BlockedFifoRecovery
{
    private BlockedFifoRecovery()
    {
    }

    /** @return whether the record was fifo-bloom's (else the caller replays it as a STREAM of the element). */
    static boolean replay(final BlockedFifoCore core, final int op, final long hash, final long arg,
        final long[] more)
    {
        switch (op)
        {
            case KindOps.FIFO_TURN -> turn(core, arg, more.length > 0 ? more[0] : 0, more.length > 1 && more[1] != 0);
            case KindOps.FIFO_ADD -> add(core, arg - 1, hash);
            default ->
            {
                return false;
            }
        }
        return true;
    }

    /**
     * FIFO_TURN: the turn to g happened after the checkpoint, and its record precedes every add of g (they wait for
     * its publish): so the slot is cleared whole, whatever mix of its old generation and of g the image holds, and
     * g's adds replayed after it set exactly g's bits (even when the image's header is past g, its table pages may
     * be older); g is published at its recorded start when the image lacks it.
     */
    private static void turn(final BlockedFifoCore core, final long generation, final long start,
        final boolean byTime)
    {
        if (core.state.getLongVolatile(READY) < generation)
        {
            turnTo(core, generation - 1);
            core.publish(generation, start, byTime);
        }
        if (generation < core.generations)
        {
            return; // a slot's first use: nothing older in it
        }
        final int slot = (int)(generation % core.generations);
        core.slots.clearLive(slot, BlockedFifoLayout.parity(generation, core.generations));
        core.publishSwept(generation);
    }

    /** Publishes every generation up to g the image lacks whose turn the log does not hold (at the count's start). */
    private static void turnTo(final BlockedFifoCore core, final long generation)
    {
        for (long g = core.state.getLongVolatile(READY) + 1; g <= generation; g++)
        {
            core.publish(g, core.window == null ? 0 : core.window.countStart(g - 1, FilterClock.NO_TIME), false);
        }
    }

    /**
     * FIFO_ADD: the item of ticket {@code ticket}, set in its generation's slot when that is still live, once the
     * slot is wholly live for it (idempotent: a sweep keeps the blocks already live for the generation), the ticket
     * count raised to the ticket's (never lowered: the image may be ahead).
     */
    private static void add(final BlockedFifoCore core, final long ticket, final long hash)
    {
        final long generation = ticket / core.perGeneration;
        turnTo(core, generation);
        if (core.state.getLongVolatile(INSERTIONS) <= ticket)
        {
            core.state.putLongRelease(INSERTIONS, ticket + 1);
        }
        if (generation <= core.state.getLongVolatile(READY) - core.generations)
        {
            return; // its slot is recycled: the uncut filter forgot it too
        }
        final int slot = (int)(generation % core.generations);
        if (core.slotStale(generation, slot))
        {
            core.slots.sweepSlot(generation, slot, BlockedFifoLayout.parity(generation, core.generations), true,
                core.late);
            core.publishSwept(generation);
        }
        core.slots.setAt(slot, BlockedBloom.block(hash, 0, core.blocks), BlockedBloom.pattern(hash, 0));
        if (core.blocksPerItem == 2)
        {
            core.slots.setAt(slot, BlockedBloom.block(hash, 1, core.blocks), BlockedBloom.pattern(hash, 1));
        }
    }
}
