package io.ddf.bench.accuracy;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;

import java.util.SplittableRandom;

/** {@code length} elements drawn independently and uniformly from {@code [0, alphabet)}; the element is its key. */
public final class UniformStream implements ElementStream
{
    private final SplittableRandom random;
    private final long alphabet;
    private long remaining;
    private long current;

    /**
     * @param alphabet number of distinct elements, at least 1.
     * @param length   number of elements.
     * @param seed     the random seed.
     */
    public UniformStream(final long alphabet, final long length, final long seed)
    {
        if (alphabet < 1)
        {
            throw new IllegalArgumentException("alphabet must be at least 1, got " + alphabet);
        }
        this.random = new SplittableRandom(seed);
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
        current = random.nextLong(alphabet);
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
