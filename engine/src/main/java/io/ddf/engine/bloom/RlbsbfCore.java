package io.ddf.engine.bloom;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;

/**
 * Randomized Load Balanced Biased Sampling based Bloom Filter (sampling Bloom filters paper, Alg. 4): k Bloom filters
 * of s bits, one position in each, and the load L(i) (number of set bits) of each sub-filter kept in a state word of
 * the region. DUPLICATE iff all k bits are set (the pseudo-code swaps the verdicts). An element judged distinct first
 * visits every sub-filter and resets one random bit of it with probability L(i) / s, then sets its k bits. Every bit
 * that actually flips moves its sub-filter's load by one. The random choices are drawn from the element's hash and
 * salts, so a stream replays identically.
 *
 * <p>Concurrency: every bit flips by one compare-and-swap and only the thread that flipped it moves the load, by
 * one getAndAdd, so the loads stay exact once updates settle; an element's bits are not isolated from other
 * threads' updates. A process killed between a flip and its load update leaves a load off by one:
 * {@link #recover()} recounts the loads from the bits.
 *
 * <p>The sampling Bloom filters paper: S. K. Bera, S. Dutta, A. Narang and S. Bhattacherjee, "Advanced Bloom Filter
 * Based Algorithms for Efficient Approximate Data De-Duplication in Streams", 2012 (arXiv:1212.3964).
 */
final class RlbsbfCore implements FilterCore
{
    private final MappedWords region;
    private final SubFilters layout;
    private final int k;
    private final long s;

    RlbsbfCore(final MappedWords region, final SubFilters layout)
    {
        this.region = region;
        this.layout = layout;
        this.k = layout.filters();
        this.s = layout.bitsPerFilter();
    }

    @Override
    public boolean stream(final long hash)
    {
        if (contains(hash))
        {
            return true;
        }
        final long seed = Mix.mix64(hash ^ Hashes.RESET_SALT);
        final long coin = Mix.mix64(hash ^ Hashes.COIN_SALT);
        for (int i = 0; i < k; i++)
        {
            final long load = region.getLongVolatile(SubFilters.loadWord(i));
            if (Mix.reduce(Hashes.draw(coin, i), s) < load &&
                Bits.clear(region, layout.bit(i, Mix.reduce(Hashes.draw(seed, i), s))))
            {
                region.getAndAddLong(SubFilters.loadWord(i), -1);
            }
        }
        final long step = Hashes.step(hash);
        for (int i = 0; i < k; i++)
        {
            if (Bits.set(region, layout.bit(i, Hashes.position(hash, step, i, s))))
            {
                region.getAndAddLong(SubFilters.loadWord(i), 1);
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

    @Override
    public void recover()
    {
        for (int i = 0; i < k; i++)
        {
            region.putLongRelease(SubFilters.loadWord(i), Bits.count(layout.filterWords(region, i)));
        }
    }

    /**
     * @param filter a sub-filter index.
     * @return its load as kept in the region.
     */
    long load(final int filter)
    {
        return region.getLongVolatile(SubFilters.loadWord(filter));
    }

    /**
     * @param filter a sub-filter index.
     * @return its set bits, counted.
     */
    long countedLoad(final int filter)
    {
        return Bits.count(layout.filterWords(region, filter));
    }
}
