package io.ddf.engine.composite;

import io.ddf.engine.bloom.BlockedBloom;
import io.ddf.engine.changelog.KindOps;

import static io.ddf.engine.composite.BlockedFifoLayout.INSERTIONS;
import static io.ddf.engine.composite.BlockedFifoLayout.READY;
import static io.ddf.engine.composite.BlockedFifoLayout.SWEEP_DONE;
import static io.ddf.engine.composite.BlockedFifoLayout.SWEPT;

/**
 * fifo-bloom after a crash: the repair of what a killed process left half done ({@link #recover}), and the replay of
 * its change-log records onto the table as a power cut left it (FORMAT-LOG.md: FIFO_ADD, FIFO_TURN): a turn publishes
 * the generations the image lacks; an add raises the ticket count, turns to its generation, and sets the item's bits
 * in that generation's slot while it is live. Exact for every live generation: every element of one is present, and
 * the generations live are the uncut filter's.
 */
final class BlockedFifoRecovery
{
    private BlockedFifoRecovery()
    {
    }

    /** @return whether the record was fifo-bloom's (else the caller replays it as a STREAM of the element). */
    static boolean replay(final BlockedFifoCore core, final int op, final long hash, final long arg)
    {
        switch (op)
        {
            case KindOps.FIFO_TURN -> turn(core, arg);
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
     * g's adds replayed after it set exactly g's bits; then g is published (with the generations before it) and swept.
     */
    private static void turn(final BlockedFifoCore core, final long generation)
    {
        turnTo(core, generation);
        if (generation < core.generations)
        {
            return; // a slot's first use: nothing older in it
        }
        final int slot = (int)(generation % core.generations);
        final long first = BlockedFifoLayout.generationOffset(core.blocks, slot);
        final long words = core.blocks * BlockedFifoLayout.BLOCK_WORDS;
        for (long i = 0; i < words; i++)
        {
            core.table.putLongPlain(first + i, 0);
        }
        final long map = BlockedFifoLayout.mapOffset(core.blocks, core.generations, slot);
        final long live = BlockedFifoLayout.parity(generation, core.generations) == 0 ? 0 : 0x5555_5555_5555_5555L;
        for (long w = 0; w < (core.blocks + BlockedFifoLayout.STATES_PER_WORD - 1) / BlockedFifoLayout.STATES_PER_WORD;
            w++)
        {
            core.table.putLongRelease(map + w, live);
        }
        core.publishSwept(generation);
    }

    /** A FIFO_ADD's generation (and a turn's): publishes every generation up to g the image lacks. */
    private static void turnTo(final BlockedFifoCore core, final long generation)
    {
        for (long g = core.state.getLongVolatile(READY) + 1; g <= generation; g++)
        {
            core.publish(g); // sweeps g - 1 first if the image's sweep of it is unfinished
        }
    }

    /**
     * FIFO_ADD: the item of ticket {@code ticket}, set in its generation's slot when that is still live, once the
     * slot's sweep is finished (idempotent: a sweep keeps the blocks already live for the generation), the ticket
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
        if (generation >= core.generations && core.state.getLongVolatile(SWEPT) < generation)
        {
            core.sweepSlot(generation, false);
            core.publishSwept(generation);
        }
        final int slot = (int)(generation % core.generations);
        core.setAt(slot, BlockedBloom.block(hash, 0, core.blocks), BlockedBloom.pattern(hash, 0));
        if (core.blocksPerItem == 2)
        {
            core.setAt(slot, BlockedBloom.block(hash, 1, core.blocks), BlockedBloom.pattern(hash, 1));
        }
    }

    /**
     * Finishes what a killed process left: the sweep of the newest generation (and of the previous one, killed
     * between its ticket and its publish), zeroing each block that is not live (ZEROING ones included), then
     * publishes the newest generation as ready and swept. Costs a read of the slot's map, plus the zeroing the
     * sweep had left: nothing when the file was closed after its sweep, as it nearly always is.
     */
    static void recover(final BlockedFifoCore core)
    {
        final long claimed = core.state.getLongVolatile(INSERTIONS);
        if (claimed == 0)
        {
            return;
        }
        final long newest = (claimed - 1) / core.perGeneration;
        final long swept = core.state.getLongVolatile(SWEPT);
        final boolean unswept = newest >= core.generations && swept < newest;
        if (!unswept && core.state.getLongVolatile(READY) == newest)
        {
            return; // nothing left half done: a clean open writes nothing (the file's checksum stays)
        }
        for (long g = Math.max(core.generations, newest - 1); g <= newest; g++)
        {
            if (swept < g)
            {
                core.sweepSlot(g, true);
            }
        }
        // the sweep tickets of the newest generation not yet handed out will count up to c' as usual
        final long issued = Math.min(core.sweepTickets, claimed - newest * core.perGeneration);
        core.state.putLongRelease(SWEEP_DONE, BlockedFifoCore.sweepTag(newest) |
            (newest >= core.generations ? issued : 0));
        if (newest >= core.generations)
        {
            core.state.putLongRelease(SWEPT, newest);
        }
        core.state.putLongRelease(READY, newest);
    }
}
