package io.ddf.engine.bloom;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;

/**
 * Reservoir Sampling based Bloom Filter (sampling Bloom filters paper, Alg. 1): k Bloom filters of s bits, one position
 * in each. DUPLICATE iff all k bits are set. With t the stream position (1-based, a counter word of the region advanced
 * by every {@code stream}):
 * <ul>
 *   <li>t ≤ s: the element is inserted (its k bits set);</li>
 *   <li>s / t ≤ p*: for each of its bits that is 0, a set bit of that sub-filter is cleared (the first set bit
 *       from a random position), then the bit is set;</li>
 *   <li>otherwise an element judged distinct is inserted with probability s / t (the prose of §3 and eq. 3.11
 *       insert only elements reported distinct), and then one random bit of each sub-filter is reset (it may
 *       already be 0, as §4 notes for the same deletion).</li>
 * </ul>
 * The coin and the random positions are drawn from the element's hash, a salt and t, so a stream replays
 * identically.
 *
 * <p>Concurrency: the position counter is advanced with one getAndAdd, every bit set or cleared with one
 * compare-and-swap; an element's k bits are not isolated from other threads' updates.
 *
 * <p>The sampling Bloom filters paper: S. K. Bera, S. Dutta, A. Narang and S. Bhattacherjee, "Advanced Bloom Filter
 * Based Algorithms for Efficient Approximate Data De-Duplication in Streams", 2012 (arXiv:1212.3964).
 */
final class RsbfCore implements FilterCore
{
    private final MappedWords region;
    private final SubFilters layout;
    private final int k;
    private final long s;
    private final double threshold;

    RsbfCore(final MappedWords region, final SubFilters layout, final double threshold)
    {
        this.region = region;
        this.layout = layout;
        this.k = layout.filters();
        this.s = layout.bitsPerFilter();
        this.threshold = threshold;
    }

    @Override
    public boolean stream(final long hash)
    {
        final long t = region.getAndAddLong(SubFilters.COUNTER_WORD, 1) + 1;
        final long step = Hashes.step(hash);
        if (t <= s)
        {
            boolean duplicate = true;
            for (int i = 0; i < k; i++)
            {
                if (Bits.set(region, layout.bit(i, Hashes.position(hash, step, i, s))))
                {
                    duplicate = false;
                }
            }
            return duplicate;
        }
        if (contains(hash))
        {
            return true;
        }
        final long seed = Mix.mix64(Mix.mix64(hash ^ Hashes.COIN_SALT) + t * Mix.GOLDEN_GAMMA);
        if (s <= threshold * t)
        {
            for (int i = 0; i < k; i++)
            {
                final long bit = layout.bit(i, Hashes.position(hash, step, i, s));
                if (!Bits.get(region, bit))
                {
                    layout.clearSetBitFrom(region, i, Mix.reduce(Hashes.draw(seed, i), s));
                    Bits.set(region, bit);
                }
            }
        }
        else if (Mix.reduce(seed, t) < s)
        {
            for (int i = 0; i < k; i++)
            {
                Bits.set(region, layout.bit(i, Hashes.position(hash, step, i, s)));
            }
            for (int i = 0; i < k; i++)
            {
                Bits.clear(region, layout.bit(i, Mix.reduce(Hashes.draw(seed, i), s)));
            }
        }
        return false;
    }

    @Override
    public boolean contains(final long hash)
    {
        return layout.allSet(region, hash);
    }

    @Override
    public void clear()
    {
        region.clear();
    }
}
