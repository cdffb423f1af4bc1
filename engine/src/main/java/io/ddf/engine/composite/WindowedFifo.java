package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterClock;

/** Makes the blocked fifo-bloom with a window of time (layout 2.1): {@link BlockedFifoCore} with a {@link FifoWindow}. */
public final class WindowedFifo
{
    private WindowedFifo()
    {
    }

    /**
     * A blocked fifo-bloom with a window of time.
     *
     * @param table         the table.
     * @param state         the header's state words.
     * @param blocks        B per generation.
     * @param hashFunctions k per item.
     * @param blocksPerItem d.
     * @param perGeneration c = ⌈n / L⌉.
     * @param windowMillis  W.
     * @param slices        L: 2 L generations.
     * @param clock         what a call without a time reads ({@link FilterClock#NONE}: event time).
     * @return the core.
     */
    public static BlockedFifoCore of(final MappedWords table, final MappedWords state, final long blocks,
        final int hashFunctions, final int blocksPerItem, final long perGeneration, final long windowMillis,
        final int slices, final FilterClock clock)
    {
        return new BlockedFifoCore(table, state, blocks, hashFunctions, blocksPerItem, 2 * slices, perGeneration,
            new FifoWindow.Spec(windowMillis, slices, clock, clock == FilterClock.NONE), null);
    }
}
