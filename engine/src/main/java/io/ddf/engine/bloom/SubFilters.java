package io.ddf.engine.bloom;

import io.ddf.engine.memory.MappedWords;

/**
 * The layout of the sampling Bloom filters paper's filters: k Bloom filters of s = ⌊M / k⌋ bits each, every one
 * starting on a word, after a block of state words (a stream counter, then one load per sub-filter) rounded up to whole
 * cache lines.
 *
 * <p>The sampling Bloom filters paper: S. K. Bera, S. Dutta, A. Narang and S. Bhattacherjee, "Advanced Bloom Filter
 * Based Algorithms for Efficient Approximate Data De-Duplication in Streams", 2012 (arXiv:1212.3964).
 */
final class SubFilters
{
    /** State word holding the stream position (RSBF). */
    static final int COUNTER_WORD = 0;

    private final int k;
    private final long s;
    private final long stateWords;
    private final long wordsPerFilter;

    /**
     * @param memoryBits M.
     * @param k          sub-filters, at most M.
     */
    SubFilters(final long memoryBits, final int k)
    {
        this.k = k;
        this.s = memoryBits / k;
        this.stateWords = ((1 + k + 7) / 8) * 8;
        this.wordsPerFilter = (s + 63) >>> 6;
    }

    /** @return sub-filters k. */
    int filters()
    {
        return k;
    }

    /** @return bits per sub-filter s. */
    long bitsPerFilter()
    {
        return s;
    }

    /** @return words of the whole region. */
    long words()
    {
        return stateWords + k * wordsPerFilter;
    }

    /** @return the region's size in bytes, a multiple of 64. */
    long bytes()
    {
        return ((words() * 8 + 63) / 64) * 64;
    }

    /**
     * @param filter a sub-filter index.
     * @return the state word holding its load (RLBSBF).
     */
    static long loadWord(final int filter)
    {
        return 1 + filter;
    }

    /**
     * @param filter a sub-filter index.
     * @param bit    a bit of it, in [0, s).
     * @return the bit's index in the region.
     */
    long bit(final int filter, final long bit)
    {
        return ((stateWords + filter * wordsPerFilter) << 6) + bit;
    }

    /**
     * The sampling Bloom filters paper lookup: DUPLICATE iff the element's bit is set in every sub-filter (the prose's
     * reading; the pseudo-code of Alg. 2–4 swaps the verdicts).
     *
     * @param region the region.
     * @param hash   the element's hash.
     * @return whether all k of the element's bits are set.
     */
    boolean allSet(final MappedWords region, final long hash)
    {
        final long step = Hashes.step(hash);
        for (int i = 0; i < k; i++)
        {
            if (!Bits.get(region, bit(i, Hashes.position(hash, step, i, s))))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param region the region.
     * @param filter a sub-filter index.
     * @return that sub-filter's words.
     */
    MappedWords filterWords(final MappedWords region, final int filter)
    {
        return region.slice(stateWords + filter * wordsPerFilter, wordsPerFilter);
    }

    /**
     * Clears a set bit of a sub-filter near a start: the first set bit at or after the start within its word
     * (wrapping round the word), else in the following words (wrapping round the sub-filter). Nothing when the
     * sub-filter is empty.
     *
     * @param region the region.
     * @param filter a sub-filter index.
     * @param start  a bit of it, in [0, s).
     * @return true when a bit was cleared.
     */
    boolean clearSetBitFrom(final MappedWords region, final int filter, final long start)
    {
        final long first = stateWords + filter * wordsPerFilter;
        long word = start >>> 6;
        int rotate = (int)(start & 63);
        for (long scanned = 0; scanned <= wordsPerFilter; scanned++)
        {
            final long index = first + word;
            final long value = region.getLongVolatile(index);
            if (value != 0)
            {
                final int offset = (Long.numberOfTrailingZeros(Long.rotateRight(value, rotate)) + rotate) & 63;
                if (region.compareAndSetLong(index, value, value & ~(1L << offset)))
                {
                    return true;
                }
                scanned--; // lost a race on this word: look at it again
                continue;
            }
            rotate = 0;
            word = word + 1 == wordsPerFilter ? 0 : word + 1;
        }
        return false;
    }
}
