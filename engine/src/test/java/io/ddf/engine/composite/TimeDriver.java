package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Generations turned by time, as a filter with a window of time turns them when W / L passes before c new items
 * came: the driver moves the filter's clock (injected, no sleep) past the newest generation's turn, sometimes over
 * several slices at once (one turn, the older generations expiring), and each generation gets fewer new items than
 * its sweep's tickets, so that every slot is left partly stale and is sealed when it is reused.
 */
final class TimeDriver extends TicketDriver
{
    private final long slice;
    private final AtomicLong clock;

    /**
     * @param core          the filter, whose clock is {@code clock}.
     * @param header        its header state words.
     * @param perGeneration c.
     * @param slice         W / L.
     * @param clock         the filter's clock.
     * @param seed          of the driver's own new elements and of the jumps.
     */
    TimeDriver(final BlockedFifoCore core, final MappedWords header, final long perGeneration, final long slice,
        final AtomicLong clock, final long seed)
    {
        super(core, header, perGeneration, seed);
        this.slice = slice;
        this.clock = clock;
    }

    /**
     * Turns by time up to {@code generation} (offset 0: to just before it, the clock set so that the next call turns),
     * then streams new elements until the next would take ticket {@code offset} (at least 1 after a turn by time,
     * whose own ticket is offset 0).
     */
    @Override
    public void advanceTo(final long generation, final long offset)
    {
        while (newest() < generation - 1)
        {
            turnOnce();
        }
        if (header.getLongVolatile(BlockedFifoLayout.STARTED) == 0)
        {
            stream(random.nextLong());
        }
        dueNow();
        if (offset == 0)
        {
            return;
        }
        if (newest() < generation)
        {
            stream(random.nextLong()); // turns, and takes ticket 1
        }
        streamUpTo(generation * perGeneration + offset);
    }

    /** One turn by time: the clock past the newest's turn (a third of the time over two or three slices more). */
    private void turnOnce()
    {
        if (header.getLongVolatile(BlockedFifoLayout.STARTED) == 0)
        {
            stream(random.nextLong()); // the first call starts the filter's time, in generation 0
        }
        final long before = newest();
        dueNow();
        if (random.nextInt(3) == 0)
        {
            clock.addAndGet(slice * (2 + random.nextInt(2)) + random.nextInt((int)slice));
        }
        stream(random.nextLong());
        if (newest() != before + 1)
        {
            throw new IllegalStateException("a turn by time took generation " + before + " to " + newest());
        }
    }

    /** Moves the clock to the newest generation's turn, if it is not there yet. */
    private void dueNow()
    {
        final long newest = newest();
        final long due = header.getLongVolatile(BlockedFifoLayout.START + (int)(newest % generations())) + slice;
        if (header.getLongVolatile(BlockedFifoLayout.STARTED) == 0)
        {
            return; // the first call starts the filter's time; it turns nothing
        }
        clock.accumulateAndGet(due, Math::max);
    }

    private int generations()
    {
        return 2 * core.window().slices();
    }

    @Override
    public void turnTo(final long generation)
    {
        while (newest() < generation)
        {
            turnOnce();
        }
    }

    @Override
    public long oldestHeld()
    {
        return core.window().oldest();
    }
}
