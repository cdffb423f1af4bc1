package io.ddf.engine.bloom;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;

/**
 * The plain Bloom filter: M bits, K positions per element, no deletion. DUPLICATE iff all K bits are set; an
 * element judged UNSEEN sets them. On an unbounded stream it saturates: the FPR tends to 1, the FNR is always 0.
 *
 * <p>Concurrency: each bit is set by its own compare-and-swap, so no bit is ever lost and there is never a false
 * negative; the element as a whole is not isolated (two threads streaming the same new element may both get
 * UNSEEN).
 */
final class BloomCore implements FilterCore
{
    private final MappedWords bits;
    private final long m;
    private final int k;
    private final boolean enhanced;

    BloomCore(final MappedWords bits, final long m, final int k)
    {
        this(bits, m, k, false);
    }

    /**
     * @param enhanced true for {@link Hashes#enhancedPosition} (the capacity filter's subfilters), false for plain
     *                 double hashing (the bloom kind's files, whose positions may not change).
     */
    BloomCore(final MappedWords bits, final long m, final int k, final boolean enhanced)
    {
        this.bits = bits;
        this.m = m;
        this.k = k;
        this.enhanced = enhanced;
    }

    private long position(final long hash, final long step, final int i)
    {
        return enhanced ? Hashes.enhancedPosition(hash, step, i, m) : Hashes.position(hash, step, i, m);
    }

    @Override
    public boolean stream(final long hash)
    {
        final long step = Hashes.step(hash);
        boolean duplicate = true;
        for (int i = 0; i < k; i++)
        {
            if (Bits.set(bits, position(hash, step, i)))
            {
                duplicate = false;
            }
        }
        return duplicate;
    }

    /**
     * A plain read of each word {@link #stream} will set: k misses that a batch overlaps across its elements, where
     * {@link #stream}'s compare-and-swaps would take them one at a time (a locked instruction waits for the loads and
     * stores before it).
     */
    @Override
    public long touch(final long hash)
    {
        final long step = Hashes.step(hash);
        long sum = 0;
        for (int i = 0; i < k; i++)
        {
            sum += bits.getLongPlain(position(hash, step, i) >>> 6);
        }
        return sum;
    }

    @Override
    public boolean contains(final long hash)
    {
        final long step = Hashes.step(hash);
        for (int i = 0; i < k; i++)
        {
            if (!Bits.get(bits, position(hash, step, i)))
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public void clear()
    {
        bits.clear();
    }
}
