package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;

import static io.ddf.engine.composite.BlockedFifoLayout.INSERTIONS;
import static io.ddf.engine.composite.BlockedFifoLayout.READY;
import static io.ddf.engine.composite.BlockedFifoLayout.STALE;
import static io.ddf.engine.composite.BlockedFifoLayout.SWEEP_DONE;
import static io.ddf.engine.composite.BlockedFifoLayout.SWEPT;

/**
 * What a blocked fifo-bloom's open finishes of a killed process's work ({@link BlockedFifoCore#recover()}); the
 * caller holds the file's writer lock, so no other thread or process runs. Nothing acknowledged is lost: an item is
 * acknowledged after its bits are set in a block live for its generation, and recovery zeroes only blocks that are
 * not live (a ZEROING state is a killed claim's, which no insert was acknowledged into).
 *
 * <ul>
 *   <li>Without a window (layout 2.0), with G the newest generation claimed: for G − 1 and G not yet swept, every
 *       block of the slot that is not live is zeroed and made live; then SWEEP_DONE counts the sweep tickets of G
 *       already handed out, SWEPT = G and READY = G.</li>
 *   <li>With a window (2.1): the generations claimed but not published are published (no item was acknowledged in
 *       them; a slot reused is sealed as a rotation seals it); every block left ZEROING in a slot marked stale is
 *       zeroed and made live; the newest generation's sweep shares already handed out are finished if a sweeper was
 *       killed (SWEEP_DONE short of them). Older slots marked stale stay so until they are reused.</li>
 * </ul>
 * A file closed cleanly has nothing of this to do, and its open writes nothing (its checksum stays).
 */
final class FifoRecovery
{
    private final BlockedFifoCore core;
    private final MappedWords state;
    private final FifoBlocks slots;
    private final FifoWindow window;
    private final int generations;
    private final long perGeneration;
    private final long sweepTickets;
    private final long sweepBlocks;
    private final long blocks;

    FifoRecovery(final BlockedFifoCore core, final MappedWords state, final FifoBlocks slots, final FifoWindow window,
        final int generations, final long perGeneration, final long sweepTickets, final long sweepBlocks,
        final long blocks)
    {
        this.core = core;
        this.state = state;
        this.slots = slots;
        this.window = window;
        this.generations = generations;
        this.perGeneration = perGeneration;
        this.sweepTickets = sweepTickets;
        this.sweepBlocks = sweepBlocks;
        this.blocks = blocks;
    }

    void run()
    {
        final long claimed = state.getLongVolatile(INSERTIONS);
        if (claimed == 0)
        {
            return;
        }
        final long newest = (claimed - 1) / perGeneration;
        if (window == null)
        {
            recoverCounted(claimed, newest);
        }
        else
        {
            recoverWindowed(claimed, newest);
        }
    }

    private void recoverCounted(final long claimed, final long newest)
    {
        final long swept = state.getLongVolatile(SWEPT);
        final boolean unswept = newest >= generations && swept < newest;
        if (!unswept && state.getLongVolatile(READY) == newest)
        {
            return; // nothing left half done: a clean open writes nothing (the file's checksum stays)
        }
        for (long g = Math.max(generations, newest - 1); g <= newest; g++)
        {
            if (swept < g)
            {
                slots.sweepSlot(g, slot(g), BlockedFifoLayout.parity(g, generations), true, x -> false);
            }
        }
        // the sweep tickets of the newest generation not yet handed out will count up to c' as usual
        final long issued = Math.min(sweepTickets, claimed - newest * perGeneration);
        state.putLongRelease(SWEEP_DONE, BlockedFifoCore.sweepTag(newest) | (newest >= generations ? issued : 0));
        if (newest >= generations)
        {
            state.putLongRelease(SWEPT, newest);
        }
        state.putLongRelease(READY, newest);
    }

    private void recoverWindowed(final long claimed, final long newest)
    {
        for (long h = state.getLongVolatile(READY) + 1; h <= newest; h++)
        {
            core.publishUnpublished(h);
        }
        final long stale = state.getLongVolatile(STALE);
        for (int slot = 0; slot < generations; slot++)
        {
            if ((stale >>> slot & 1) != 0)
            {
                final long use = newest - Math.floorMod(newest - slot, (long)generations);
                slots.repairClaims(slot, BlockedFifoLayout.parity(use, generations));
            }
        }
        if (newest < generations || (stale >>> slot(newest) & 1) == 0)
        {
            return;
        }
        final long issued = Math.min(sweepTickets, claimed - newest * perGeneration);
        final long done = state.getLongVolatile(SWEEP_DONE);
        final long tag = BlockedFifoCore.sweepTag(newest);
        final long counted = (done & ~BlockedFifoCore.COUNT_MASK) == tag ? done & BlockedFifoCore.COUNT_MASK : 0;
        if (counted < issued)
        {
            // a sweeper killed mid-share: finish every share handed out (the blocks already live are skipped)
            slots.sweepRange(newest, slot(newest), BlockedFifoLayout.parity(newest, generations), 0,
                Math.min(blocks, issued * sweepBlocks), true, x -> false);
            state.putLongRelease(SWEEP_DONE, tag | issued);
            if (issued == sweepTickets)
            {
                core.publishSwept(newest);
            }
        }
    }

    private int slot(final long generation)
    {
        return (int)(generation % generations);
    }
}
