package io.ddf.engine.bloom;

import io.ddf.engine.spi.ParamDef;

/** Defaults, limits and parameters the Bloom family shares. */
final class BloomParams
{
    /** Default memory: 2^26 bits (8 MiB). */
    static final long DEFAULT_MEMORY_BITS = 1L << 26;
    /** Largest table: 2^43 bits (1 TiB). */
    static final long MAX_MEMORY_BITS = 1L << 43;
    /** Smallest table: one word. */
    static final long MIN_MEMORY_BITS = 64;
    /** Default window of the windowed kinds (A2, b_DBF). */
    static final long DEFAULT_WINDOW = 1L << 16;
    /** Largest window: stamps and counts stay well inside a word. */
    static final long MAX_WINDOW = 1L << 40;
    /** Most hash functions a kind accepts. */
    static final int MAX_HASH_FUNCTIONS = 32;
    /** Most hash functions a default derived from the memory per element gives (more cost time, gain ~nothing). */
    static final int MAX_DEFAULT_HASH_FUNCTIONS = 8;

    /** SBF's cell width d (Max = 2^d − 1). */
    static final ParamDef CELL_BITS = ParamDef.longOption("cell-bits", "Bits per counter cell d, SBF (default 2).");
    /** RSBF's threshold p*. */
    static final ParamDef RESERVOIR_THRESHOLD = ParamDef.doubleOption("reservoir-threshold",
        "RSBF p*: insert all once s/t <= p* (default 0.03).");
    /** SBF's P, derived from the target FPR. */
    static final ParamDef DECREMENTS = ParamDef.derived("decrements", "Cells decremented per arrival P, SBF.");

    private BloomParams()
    {
    }

    /**
     * @param memoryBits M as given.
     * @return a message when it is out of range, else null.
     */
    static String checkMemory(final long memoryBits)
    {
        if (memoryBits < MIN_MEMORY_BITS || memoryBits > MAX_MEMORY_BITS)
        {
            return "memory-bits must be in " + MIN_MEMORY_BITS + "..2^43, got " + memoryBits;
        }
        return null;
    }

    /**
     * @param k K as given.
     * @return a message when it is out of range, else null.
     */
    static String checkHashFunctions(final long k)
    {
        if (k < 1 || k > MAX_HASH_FUNCTIONS)
        {
            return "hash-functions must be in 1.." + MAX_HASH_FUNCTIONS + ", got " + k;
        }
        return null;
    }

    /**
     * The K minimising a Bloom filter's false positive rate, ln 2 · cells / elements, within
     * 1..{@link #MAX_DEFAULT_HASH_FUNCTIONS}.
     *
     * @param cells    cells (or bits) of the filter.
     * @param elements elements it holds at most.
     * @return K.
     */
    static long optimalHashFunctions(final double cells, final double elements)
    {
        final long k = Math.round(Math.log(2) * cells / elements);
        return Math.max(1, Math.min(MAX_DEFAULT_HASH_FUNCTIONS, k));
    }
}
