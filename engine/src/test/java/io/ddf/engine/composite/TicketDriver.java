package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What the race test's drivers share ({@link CountDriver}, {@link TimeDriver}): an element's generation is its ticket
 * / c, the ticket the insertion count read just before it (exact while the driving thread is the only one taking
 * tickets: a parked late thread took its one ticket before parking; a turn by time rounds the counter up to the next
 * generation's first ticket, so this stays true, an element whose own call turns being noted a generation older than it
 * is, which only leaves it out of a check).
 */
abstract class TicketDriver implements GenerationDriver
{
    final BlockedFifoCore core;
    final MappedWords header;
    final long perGeneration;
    final SplittableRandom random;
    private final List<long[]> acknowledged = Collections.synchronizedList(new ArrayList<>());

    /**
     * @param core          the filter.
     * @param header        its header state words.
     * @param perGeneration c.
     * @param seed          of the driver's own new elements.
     */
    TicketDriver(final BlockedFifoCore core, final MappedWords header, final long perGeneration, final long seed)
    {
        this.core = core;
        this.header = header;
        this.perGeneration = perGeneration;
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

    /** Streams new elements of the driver's own until the next would take ticket {@code ticket}. */
    void streamUpTo(final long ticket)
    {
        if (header.getLongVolatile(BlockedFifoLayout.INSERTIONS) > ticket)
        {
            throw new IllegalStateException("ticket " + ticket + " is behind the filter");
        }
        while (header.getLongVolatile(BlockedFifoLayout.INSERTIONS) < ticket)
        {
            stream(random.nextLong());
        }
    }
}
