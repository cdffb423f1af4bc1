package io.ddf.bench.accuracy.stream;

import java.util.SplittableRandom;

/**
 * {@code length} elements drawn independently from a Zipf law over {@code [0, alphabet)}: element k - 1 has
 * probability proportional to k^-exponent. The filters hash elements, so rank order leaks into nothing.
 */
public final class ZipfStream extends SyntheticStream
{
    private final ZipfSampler sampler;

    /**
     * @param alphabet number of distinct elements.
     * @param exponent the Zipf exponent (0 is uniform).
     * @param length   number of elements.
     * @param seed     the random seed.
     */
    public ZipfStream(final long alphabet, final double exponent, final long length, final long seed)
    {
        super(alphabet, length, seed);
        this.sampler = new ZipfSampler(alphabet, exponent);
    }

    @Override
    long draw(final SplittableRandom random)
    {
        return sampler.sample(random) - 1;
    }
}
