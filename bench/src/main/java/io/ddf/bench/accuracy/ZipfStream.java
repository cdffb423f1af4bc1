package io.ddf.bench.accuracy;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;

import java.util.SplittableRandom;

/**
 * {@code length} elements drawn independently from a Zipf law over {@code [0, alphabet)}: element k - 1 has
 * probability proportional to k^-exponent. The filters hash elements, so rank order leaks into nothing.
 */
public final class ZipfStream implements ElementStream
{
    private final SplittableRandom random;
    private final ZipfSampler sampler;
    private final long alphabet;
    private long remaining;
    private long current;

    /**
     * @param alphabet number of distinct elements.
     * @param exponent the Zipf exponent (0 is uniform).
     * @param length   number of elements.
     * @param seed     the random seed.
     */
    public ZipfStream(final long alphabet, final double exponent, final long length, final long seed)
    {
        this.random = new SplittableRandom(seed);
        this.sampler = new ZipfSampler(alphabet, exponent);
        this.alphabet = alphabet;
        this.remaining = length;
    }

    @Override
    public boolean next()
    {
        if (remaining <= 0)
        {
            return false;
        }
        remaining--;
        current = sampler.sample(random) - 1;
        return true;
    }

    @Override
    public long key()
    {
        return current;
    }

    @Override
    public long keySpace()
    {
        return alphabet;
    }

    @Override
    public Verdict feed(final DuplicateFilter filter)
    {
        return filter.stream(current);
    }
}
