package io.ddf.engine.bloom;

import io.ddf.engine.memory.MappedWords;

/**
 * Single-bit operations on mapped words, each one compare-and-swap (or none when nothing changes), so that
 * concurrent writers never lose each other's bits.
 */
final class Bits
{
    private Bits()
    {
    }

    /**
     * @param words the words.
     * @param bit   a bit index into them.
     * @return whether the bit is set.
     */
    static boolean get(final MappedWords words, final long bit)
    {
        return (words.getLongVolatile(bit >>> 6) & (1L << bit)) != 0;
    }

    /**
     * Sets a bit.
     *
     * @param words the words.
     * @param bit   a bit index into them.
     * @return true when this call turned it from 0 to 1.
     */
    static boolean set(final MappedWords words, final long bit)
    {
        final long index = bit >>> 6;
        final long mask = 1L << bit;
        while (true)
        {
            final long word = words.getLongVolatile(index);
            if ((word & mask) != 0)
            {
                return false;
            }
            if (words.compareAndSetLong(index, word, word | mask))
            {
                return true;
            }
        }
    }

    /**
     * Clears a bit.
     *
     * @param words the words.
     * @param bit   a bit index into them.
     * @return true when this call turned it from 1 to 0.
     */
    static boolean clear(final MappedWords words, final long bit)
    {
        final long index = bit >>> 6;
        final long mask = 1L << bit;
        while (true)
        {
            final long word = words.getLongVolatile(index);
            if ((word & mask) == 0)
            {
                return false;
            }
            if (words.compareAndSetLong(index, word, word & ~mask))
            {
                return true;
            }
        }
    }

    /**
     * @param words the words.
     * @return the number of set bits.
     */
    static long count(final MappedWords words)
    {
        long ones = 0;
        for (long i = 0; i < words.words(); i++)
        {
            ones += Long.bitCount(words.getLongVolatile(i));
        }
        return ones;
    }
}
