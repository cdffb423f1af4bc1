package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generations turned by count, as in production: every c-th new item rotates. An element's generation is its
 * ticket / c, and its ticket is the insertion count read just before it: exact while the driving thread is the only
 * one taking tickets (a parked late thread took its one ticket before parking).
 */
final class CountDriver implements GenerationDriver
{
    private final BlockedFifoCore core;
    private final MappedWords header;
    private final long perGeneration;
    private final long blocks;
    private final int generations;
    private final SplittableRandom random;
    private final List<long[]> acknowledged = Collections.synchronizedList(new ArrayList<>());

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
        this.core = core;
        this.header = header;
        this.perGeneration = perGeneration;
        this.blocks = blocks;
        this.generations = generations;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public boolean stream(final long item)
    {
        final long ticketAtLeast = header.getLongVolatile(BlockedFifoLayout.INSERTIONS);
        final boolean duplicate = core.stream(item);
        if (!duplicate)
        {
            acknowledged.add(new long[] {item, ticketAtLeast / perGeneration});
        }
        return duplicate;
    }

    @Override
    public void advanceTo(final long generation, final long offset)
    {
        final long ticket = generation * perGeneration + offset;
        if (header.getLongVolatile(BlockedFifoLayout.INSERTIONS) > ticket)
        {
            throw new IllegalStateException("ticket " + ticket + " is behind the filter");
        }
        while (header.getLongVolatile(BlockedFifoLayout.INSERTIONS) < ticket)
        {
            stream(random.nextLong());
        }
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

    @Override
    public BlockedFifoCore core()
    {
        return core;
    }

    @Override
    public long newest()
    {
        return header.getLongVolatile(BlockedFifoLayout.READY);
    }

    @Override
    public List<long[]> acknowledged()
    {
        synchronized (acknowledged)
        {
            return new ArrayList<>(acknowledged);
        }
    }
}
