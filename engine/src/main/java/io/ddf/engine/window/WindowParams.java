package io.ddf.engine.window;

import io.ddf.engine.spi.CommonParams;
import io.ddf.engine.spi.GivenParameters;

/** Defaults and bounds the windowed kinds share. */
final class WindowParams
{
    /** Default sliding window: 2^16 elements. */
    static final long DEFAULT_WINDOW = 1L << 16;
    /** Default memory: 2^26 bits. */
    static final long DEFAULT_MEMORY_BITS = 1L << 26;
    /** Largest window: 2^32 elements. */
    static final long MAX_WINDOW = 1L << 32;
    /** Largest memory: 2^43 bits (1 TiB), as for the other kinds. */
    static final long MAX_MEMORY_BITS = 1L << 43;

    private WindowParams()
    {
    }

    /**
     * @param given the given parameters.
     * @return the window, defaulted and checked.
     * @throws IllegalArgumentException when out of range.
     */
    static long window(final GivenParameters given)
    {
        final long w = given.getLong(CommonParams.WINDOW.name(), DEFAULT_WINDOW);
        if (w < 1 || w > MAX_WINDOW)
        {
            throw new IllegalArgumentException("window must be in 1..2^32, got " + w);
        }
        return w;
    }

    /**
     * @param w a positive window.
     * @return log2 w, exact when w is a power of two.
     */
    static double log2(final long w)
    {
        return Long.bitCount(w) == 1 ? Long.numberOfTrailingZeros(w) : Math.log(w) / Math.log(2);
    }
}
