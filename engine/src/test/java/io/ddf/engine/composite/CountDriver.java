package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;

/** Generations turned by count, as in production: every c-th new item rotates. */
final class CountDriver extends TicketDriver
{
    private final long blocks;
    private final int generations;

    /**
     * @param core          the filter.
     * @param header        its header state words.
     * @param perGeneration c.
     * @param blocks        B.
     * @param generations   L.
     * @param seed          of the driver's own new elements.
     */
    CountDriver(final BlockedFifoCore core, final MappedWords header, final long perGeneration, final long blocks,
        final int generations, final long seed)
    {
        super(core, header, perGeneration, seed);
        this.blocks = blocks;
        this.generations = generations;
    }

    @Override
    public void advanceTo(final long generation, final long offset)
    {
        streamUpTo(generation * perGeneration + offset);
    }

    @Override
    public void turnTo(final long generation)
    {
        advanceTo(generation, Math.min(perGeneration, (blocks + BlockedFifoLayout.SWEEP_BLOCKS - 1) /
            BlockedFifoLayout.SWEEP_BLOCKS)); // published, its slot wholly swept
    }

    @Override
    public long oldestHeld()
    {
        return newest() - generations + 1;
    }
}
