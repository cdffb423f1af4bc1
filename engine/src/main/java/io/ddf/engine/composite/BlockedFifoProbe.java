package io.ddf.engine.composite;

/**
 * Test seam of the blocked fifo-bloom ({@link BlockedFifoCore}): the points of a stale block's claim at which a
 * thread descheduled for a rotation or more would race the threads that rotate past it, reported so that a test can
 * park one thread there, turn the filter past it from another and then let it go (BlockedFifoRaceTest), instead of
 * waiting for the scheduler to deschedule it at the wrong instruction. Production cores have no probe: a null final
 * field tested only on the claim path (which then counts itself in, compare-and-swaps a state word and zeroes a
 * 64-byte block) and by a rotation held back by a claimer, never on a lookup or an insert into a live block.
 */
interface BlockedFifoProbe
{
    /** Where in the claim of a stale block the thread is. */
    enum Point
    {
        /** A sweeper or an inserter about to claim stale blocks (the first named), before it counts itself in. */
        ENTERING,
        /** The block's state was read and is not live for the thread's generation; nothing else was read yet. */
        STATE_READ,
        /** The newest published generation was read too, and is not past the thread's: the claim comes next. */
        BEFORE_CLAIM,
        /** The rotation to the generation (block −1) found claimers of the slot's previous use still counted in. */
        ROTATION_WAITS
    }

    /**
     * Called by the claiming (or rotating) thread at each point (again on each retry of the claim).
     *
     * @param point      where it is.
     * @param generation the generation it makes the block live for.
     * @param block      the block, in that generation's slot.
     */
    void reached(Point point, long generation, long block);
}
