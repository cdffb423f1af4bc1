package io.ddf.engine.bloom;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;

/**
 * Biased Sampling based Bloom Filter (sampling Bloom filters paper, Alg. 2) and its single-deletion variant BSBFSD
 * (Alg. 3): k Bloom filters of s bits, one position in each. DUPLICATE iff all k bits are set (the pseudo-code swaps
 * the two verdicts; the prose has it right). An element judged distinct first resets random bits, then sets its k bits:
 * BSBF resets one random bit of every sub-filter, BSBFSD one random bit of one random sub-filter. A chosen bit may
 * already be 0 (§4). The random choices are drawn from the element's hash and a salt, so a stream replays
 * identically.
 *
 * <p>Concurrency: every bit is set or cleared with one compare-and-swap; an element's bits are not isolated from
 * other threads' updates.
 *
 * <p>The sampling Bloom filters paper: S. K. Bera, S. Dutta, A. Narang and S. Bhattacherjee, "Advanced Bloom Filter
 * Based Algorithms for Efficient Approximate Data De-Duplication in Streams", 2012 (arXiv:1212.3964).
 */
final class BsbfCore implements FilterCore
{
    private final MappedWords region;
    private final SubFilters layout;
    private final int k;
    private final long s;
    private final boolean singleDeletion;

    BsbfCore(final MappedWords region, final SubFilters layout, final boolean singleDeletion)
    {
        this.region = region;
        this.layout = layout;
        this.k = layout.filters();
        this.s = layout.bitsPerFilter();
        this.singleDeletion = singleDeletion;
    }

    @Override
    public boolean stream(final long hash)
    {
        if (contains(hash))
        {
            return true;
        }
        final long seed = Mix.mix64(hash ^ Hashes.RESET_SALT);
        if (singleDeletion)
        {
            final int filter = (int)Mix.reduce(Hashes.draw(seed, 0), k);
            Bits.clear(region, layout.bit(filter, Mix.reduce(Hashes.draw(seed, 1), s)));
        }
        else
        {
            for (int i = 0; i < k; i++)
            {
                Bits.clear(region, layout.bit(i, Mix.reduce(Hashes.draw(seed, i), s)));
            }
        }
        final long step = Hashes.step(hash);
        for (int i = 0; i < k; i++)
        {
            Bits.set(region, layout.bit(i, Hashes.position(hash, step, i, s)));
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
