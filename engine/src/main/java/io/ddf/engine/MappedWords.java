package io.ddf.engine;

import org.agrona.UnsafeAccess;

/**
 * Flyweight over a region of 64-bit words in mapped memory, addressed by word index, with the memory ordering
 * in each method's name. Absolute addresses and long indexes, so tables may exceed 2 GiB.
 *
 * <p>Index checks follow Agrona's switch: on unless {@code agrona.disable.bounds.checks=true}, so tests check
 * and benchmarks can run without.
 */
final class MappedWords
{
    private static final boolean SHOULD_BOUNDS_CHECK = !Boolean.getBoolean("agrona.disable.bounds.checks");

    private final long address;
    private final long words;

    /**
     * @param address absolute address of word 0, 8-byte aligned.
     * @param words   number of words in the region.
     */
    MappedWords(final long address, final long words)
    {
        if ((address & 7) != 0)
        {
            throw new IllegalArgumentException("address must be 8-byte aligned: " + address);
        }
        this.address = address;
        this.words = words;
    }

    /** @return number of words. */
    long words()
    {
        return words;
    }

    long getLongVolatile(final long index)
    {
        return UnsafeAccess.UNSAFE.getLongVolatile(null, addressOf(index));
    }

    long getLongPlain(final long index)
    {
        return UnsafeAccess.UNSAFE.getLong(addressOf(index));
    }

    void putLongPlain(final long index, final long value)
    {
        UnsafeAccess.UNSAFE.putLong(addressOf(index), value);
    }

    void putLongRelease(final long index, final long value)
    {
        UnsafeAccess.UNSAFE.putOrderedLong(null, addressOf(index), value);
    }

    boolean compareAndSetLong(final long index, final long expected, final long update)
    {
        return UnsafeAccess.UNSAFE.compareAndSwapLong(null, addressOf(index), expected, update);
    }

    long getAndAddLong(final long index, final long delta)
    {
        return UnsafeAccess.UNSAFE.getAndAddLong(null, addressOf(index), delta);
    }

    private long addressOf(final long index)
    {
        if (SHOULD_BOUNDS_CHECK && (index < 0 || index >= words))
        {
            throw new IndexOutOfBoundsException("word " + index + " outside 0.." + (words - 1));
        }
        return address + (index << 3);
    }
}
