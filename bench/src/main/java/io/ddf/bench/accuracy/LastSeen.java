package io.ddf.bench.accuracy;

import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/** The position where each key was last seen, for the windowed ground truth. */
public interface LastSeen
{
    /** No earlier position, or none within the horizon kept. */
    long NONE = -1;

    /**
     * @param key      a key.
     * @param position the current position (0, 1, 2, ... in order).
     * @return the key's previous position, or {@link #NONE}; the key is now recorded at position.
     */
    long swap(long key, long position);

    /** Largest key space kept as an int array (512 MiB). */
    long MAX_ARRAY_KEYS = 1L << 27;

    /**
     * @param keySpace bound on the keys.
     * @param length   stream length.
     * @param horizon  largest distance that must be answered exactly (the largest window).
     * @return an array when keys and positions fit, a map that forgets positions older than horizon otherwise.
     */
    static LastSeen forKeySpace(final long keySpace, final long length, final long horizon)
    {
        return keySpace <= MAX_ARRAY_KEYS && length < Integer.MAX_VALUE ? new Array(keySpace) : new Windowed(horizon);
    }

    /** An int per key: position + 1, 0 for never. */
    final class Array implements LastSeen
    {
        private final int[] positions;

        /** @param keySpace bound on the keys, at most {@link #MAX_ARRAY_KEYS}. */
        public Array(final long keySpace)
        {
            positions = new int[(int)keySpace];
        }

        @Override
        public long swap(final long key, final long position)
        {
            final int previous = positions[(int)key];
            positions[(int)key] = (int)(position + 1);
            return previous - 1L;
        }
    }

    /**
     * A map from key to last position holding only the last horizon + 1 positions: a ring of the keys at those
     * positions says which entry to drop as each position leaves the horizon, so memory is O(horizon) whatever
     * the alphabet.
     */
    final class Windowed implements LastSeen
    {
        private final Long2LongHashMap positions = new Long2LongHashMap(NONE);
        private final long[] ring;

        /** @param horizon distances up to this are answered exactly; larger ones as {@link #NONE}. */
        public Windowed(final long horizon)
        {
            if (horizon >= Integer.MAX_VALUE - 1)
            {
                throw new IllegalArgumentException("window too large for the windowed ground truth: " + horizon);
            }
            ring = new long[(int)horizon + 1];
            Arrays.fill(ring, NONE);
        }

        @Override
        public long swap(final long key, final long position)
        {
            final int slot = (int)(position % ring.length);
            final long leaving = ring[slot];
            // The key at position - ring.length leaves the horizon, unless it has been seen again since.
            if (leaving != NONE && positions.get(leaving) == position - ring.length)
            {
                positions.remove(leaving);
            }
            ring[slot] = key;
            return positions.put(key, position);
        }
    }
}
