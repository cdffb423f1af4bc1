package io.ddf.bench.accuracy.stream;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;

import java.util.SplittableRandom;

/**
 * A stream of {@code length} independent draws of integer elements from {@code [0, alphabet)}; the element is its
 * key. Subclasses say how one element is drawn.
 */
public abstract class SyntheticStream implements ElementStream
{
    private final SplittableRandom random;
    private final long alphabet;
    private long remaining;
    private long current;

    SyntheticStream(final long alphabet, final long length, final long seed)
    {
        this.random = new SplittableRandom(seed);
        this.alphabet = alphabet;
        this.remaining = length;
    }

    /**
     * @param random the stream's seeded source.
     * @return the next element, in [0, alphabet).
     */
    abstract long draw(SplittableRandom random);

    @Override
    public final boolean next()
    {
        if (remaining <= 0)
        {
            return false;
        }
        remaining--;
        current = draw(random);
        return true;
    }

    @Override
    public final long key()
    {
        return current;
    }

    @Override
    public final long keySpace()
    {
        return alphabet;
    }

    @Override
    public final Verdict feed(final DuplicateFilter filter)
    {
        return filter.stream(current);
    }
}
