package io.ddf.bench.jmh;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;

import java.nio.file.Path;

/**
 * Builds a filter of any kind at a given memory for the speed and latency runs. A kind that takes a window gets
 * one: {@code "auto"} means 2^16 for a2 and bdbf (the engine's default), the window the engine derives from the
 * memory for shf and cshf (their fingerprints shrink as the window grows: 2^16 does not fit in 1 Mbit), and, for
 * exact-window, whose memory follows from its window alone, the largest window whose table fits in the memory;
 * a number forces that window on every windowed kind.
 */
public final class BenchFilters
{
    /** The window "auto" gives a2 and bdbf. */
    public static final long DEFAULT_WINDOW = 1L << 16;

    private BenchFilters()
    {
    }

    /**
     * @param kind       the kind.
     * @param memoryBits memory M, for kinds that take one.
     * @param window     "auto" or a window.
     * @param seed       hash seed.
     * @return a builder for that filter (without a file).
     */
    public static FilterBuilder builder(final FilterKind kind, final long memoryBits, final String window,
        final long seed)
    {
        final FilterBuilder builder = Filters.builder(kind).seed(seed);
        if (kind.takes("memory-bits"))
        {
            builder.memoryBits(memoryBits);
        }
        if (kind.takes("window"))
        {
            if (!"auto".equals(window))
            {
                builder.window(Long.parseLong(window));
            }
            else if (kind == FilterKind.EXACT_WINDOW)
            {
                builder.window(largestExactWindow(memoryBits));
            }
            else if (kind != FilterKind.SHF && kind != FilterKind.CSHF)
            {
                builder.window(DEFAULT_WINDOW);
            }
        }
        return builder;
    }

    /**
     * @param kind       the kind.
     * @param memoryBits memory M.
     * @param window     "auto" or a window.
     * @param seed       hash seed.
     * @param file       the mapped file to create (must not exist).
     * @return the filter.
     */
    public static DuplicateFilter create(final FilterKind kind, final long memoryBits, final String window,
        final long seed, final Path file)
    {
        return builder(kind, memoryBits, window, seed).file(file).create();
    }

    /**
     * @param memoryBits memory M.
     * @return the largest window (at least 1) whose exact-window table takes at most M bits.
     */
    static long largestExactWindow(final long memoryBits)
    {
        long low = 1;
        long high = 1L << 32;
        while (low < high)
        {
            final long mid = (low + high + 1) >>> 1;
            final long bits = Filters.builder(FilterKind.EXACT_WINDOW).window(mid).parameters().tableBytes() * 8;
            if (bits <= memoryBits)
            {
                low = mid;
            }
            else
            {
                high = mid - 1;
            }
        }
        return low;
    }
}
