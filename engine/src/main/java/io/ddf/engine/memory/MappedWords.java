package io.ddf.engine.memory;

import org.agrona.UnsafeAccess;

/**
 * Flyweight over a region of 64-bit words in mapped memory, addressed by word index, with the memory ordering
 * in each method's name. Absolute addresses and long indexes, so tables may exceed 2 GiB.
 *
 * <p>Index checks follow Agrona's switch: on unless {@code agrona.disable.bounds.checks=true}, so tests check
 * and benchmarks can run without.
 */
public final class MappedWords
{
    private static final boolean SHOULD_BOUNDS_CHECK = !Boolean.getBoolean("agrona.disable.bounds.checks");

    private final long address;
    private final long words;

    /**
     * @param address absolute address of word 0, 8-byte aligned.
     * @param words   number of words in the region.
     */
    public MappedWords(final long address, final long words)
    {
        if ((address & 7) != 0)
        {
            throw new IllegalArgumentException("address must be 8-byte aligned: " + address);
        }
        this.address = address;
        this.words = words;
    }

    /** @return number of words. */
    public long words()
    {
        return words;
    }

    /**
     * @param index word index.
     * @return the word, read with volatile (acquire) semantics.
     */
    public long getLongVolatile(final long index)
    {
        return UnsafeAccess.UNSAFE.getLongVolatile(null, addressOf(index));
    }

    /**
     * @param index word index.
     * @return the word, read plainly.
     */
    public long getLongPlain(final long index)
    {
        return UnsafeAccess.UNSAFE.getLong(addressOf(index));
    }

    /**
     * @param index word index.
     * @param value stored plainly.
     */
    public void putLongPlain(final long index, final long value)
    {
        UnsafeAccess.UNSAFE.putLong(addressOf(index), value);
    }

    /**
     * @param index word index.
     * @param value stored with release (ordered) semantics.
     */
    public void putLongRelease(final long index, final long value)
    {
        UnsafeAccess.UNSAFE.putOrderedLong(null, addressOf(index), value);
    }

    /**
     * @param index    word index.
     * @param expected the value the word must hold.
     * @param update   the value to install.
     * @return whether the word held {@code expected} and now holds {@code update}.
     */
    public boolean compareAndSetLong(final long index, final long expected, final long update)
    {
        return UnsafeAccess.UNSAFE.compareAndSwapLong(null, addressOf(index), expected, update);
    }

    /**
     * @param index word index.
     * @param delta added atomically.
     * @return the word's value before the addition.
     */
    public long getAndAddLong(final long index, final long delta)
    {
        return UnsafeAccess.UNSAFE.getAndAddLong(null, addressOf(index), delta);
    }

    /**
     * @param fromWord first word of the slice.
     * @param count    number of words.
     * @return a flyweight over words [fromWord, fromWord + count) of this region.
     */
    public MappedWords slice(final long fromWord, final long count)
    {
        if (fromWord < 0 || count < 0 || fromWord + count > words)
        {
            throw new IndexOutOfBoundsException("slice " + fromWord + "+" + count + " outside 0.." + words);
        }
        return new MappedWords(address + (fromWord << 3), count);
    }

    /** Zeroes every word, with plain stores; not atomic with respect to concurrent updates. */
    public void clear()
    {
        UnsafeAccess.UNSAFE.setMemory(address, words << 3, (byte)0);
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
