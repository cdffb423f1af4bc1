package io.ddf.engine.quotient;

import io.ddf.engine.memory.MappedWords;

/**
 * Fixed-width bit fields over mapped words, a field possibly straddling two words. Plain reads and writes: the
 * caller holds a lock that orders them.
 */
final class PackedBits
{
    private final MappedWords words;

    PackedBits(final MappedWords words)
    {
        this.words = words;
    }

    /**
     * @param bit   index of the field's lowest bit.
     * @param width bits, 1..63.
     * @return the field.
     */
    long get(final long bit, final int width)
    {
        final long index = bit >>> 6;
        final int offset = (int)(bit & 63);
        long value = words.getLongPlain(index) >>> offset;
        if (offset + width > 64)
        {
            value |= words.getLongPlain(index + 1) << (64 - offset);
        }
        return value & ((1L << width) - 1);
    }

    /**
     * @param bit   index of the field's lowest bit.
     * @param width bits, 1..63.
     * @param value the field, below 2^width.
     */
    void set(final long bit, final int width, final long value)
    {
        final long index = bit >>> 6;
        final int offset = (int)(bit & 63);
        final long mask = (1L << width) - 1;
        final long low = words.getLongPlain(index);
        words.putLongPlain(index, (low & ~(mask << offset)) | (value << offset));
        if (offset + width > 64)
        {
            final int spilled = 64 - offset;
            final long high = words.getLongPlain(index + 1);
            final long highMask = mask >>> spilled;
            words.putLongPlain(index + 1, (high & ~highMask) | (value >>> spilled));
        }
    }
}
