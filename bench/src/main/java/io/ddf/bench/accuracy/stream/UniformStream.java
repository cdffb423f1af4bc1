package io.ddf.bench.accuracy.stream;

import java.util.SplittableRandom;

/** {@code length} elements drawn independently and uniformly from {@code [0, alphabet)}; the element is its key. */
public final class UniformStream extends SyntheticStream
{
    private final long alphabet;

    /**
     * @param alphabet number of distinct elements, at least 1.
     * @param length   number of elements.
     * @param seed     the random seed.
     */
    public UniformStream(final long alphabet, final long length, final long seed)
    {
        super(checked(alphabet), length, seed);
        this.alphabet = alphabet;
    }

    private static long checked(final long alphabet)
    {
        if (alphabet < 1)
        {
            throw new IllegalArgumentException("alphabet must be at least 1, got " + alphabet);
        }
        return alphabet;
    }

    @Override
    long draw(final SplittableRandom random)
    {
        return random.nextLong(alphabet);
    }
}
