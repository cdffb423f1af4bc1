package io.ddf.bench.accuracy;

import org.agrona.collections.LongHashSet;

/** Exact membership of every key ever added: the unbounded ground truth. */
public interface SeenSet
{
    /**
     * @param key a key.
     * @return whether the key had been added before; it is added now.
     */
    boolean addAndCheck(long key);

    /** Largest key space kept as a bitmap: 2^32 bits = 512 MiB. */
    long MAX_BITMAP_KEYS = 1L << 32;

    /**
     * @param keySpace bound on the keys.
     * @return a bitmap when the key space fits {@link #MAX_BITMAP_KEYS}, an exact hash set otherwise.
     */
    static SeenSet forKeySpace(final long keySpace)
    {
        return keySpace <= MAX_BITMAP_KEYS ? new Bitmap(keySpace) : new Hashed();
    }

    /** One bit per key. */
    final class Bitmap implements SeenSet
    {
        private final long[] words;

        /** @param keySpace bound on the keys, at most 2^32. */
        public Bitmap(final long keySpace)
        {
            words = new long[(int)((keySpace + 63) >>> 6)];
        }

        @Override
        public boolean addAndCheck(final long key)
        {
            final int index = (int)(key >>> 6);
            final long mask = 1L << key;
            final long word = words[index];
            words[index] = word | mask;
            return (word & mask) != 0;
        }
    }

    /** An open-addressing set of the keys seen; memory grows with the distinct keys. */
    final class Hashed implements SeenSet
    {
        private final LongHashSet keys = new LongHashSet();

        @Override
        public boolean addAndCheck(final long key)
        {
            return !keys.add(key);
        }
    }
}
