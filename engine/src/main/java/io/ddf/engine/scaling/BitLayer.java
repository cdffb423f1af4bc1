package io.ddf.engine.scaling;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.redisbloom.BloomLink;

/**
 * A Bloom layer laid out as RedisBloom's, over its mapped bits: bit {@code x} is bit {@code x mod 8} of byte
 * {@code x / 8}, which on a little-endian machine is bit {@code x mod 64} of 64-bit word {@code x / 64}, so the
 * bytes are RedisBloom's dump bytes as they are. An item's bits are {@code (a + i·b) mod m} for
 * {@code i < hashes}, in unsigned 64-bit arithmetic, where {@code m} is {@code 2^n2} for a rounded layer and the bit
 * count otherwise.
 *
 * <p>Stores are plain: the chain lets one thread at a time add ({@link BloomChain}); readers may run at the same
 * time and see an item's bits appear one by one, answering "absent" until the add is complete.
 */
final class BitLayer implements ChainLayer
{
    private final ChainFile.Segment segment;
    private final MappedWords words;
    private final long bits;
    private final long mask;
    private final int hashes;
    private final BloomLink shape;

    /**
     * @param segment the layer's segment, its data {@code shape.bytes()} long.
     * @param shape   the bit array's shape.
     */
    BitLayer(final ChainFile.Segment segment, final BloomLink shape)
    {
        this.segment = segment;
        this.words = new MappedWords(segment.data(), shape.bytes() / Long.BYTES);
        this.shape = shape;
        this.bits = shape.bits();
        this.mask = shape.n2() > 0 ? (1L << shape.n2()) - 1 : 0;
        this.hashes = shape.hashes();
    }

    @Override
    public BloomLink link()
    {
        return shape.withSize(segment.size());
    }

    @Override
    public ChainFile.Segment segment()
    {
        return segment;
    }

    private long bit(final long a, final long b, final int i)
    {
        final long x = a + i * b;
        return mask != 0 ? x & mask : Long.remainderUnsigned(x, bits);
    }

    /**
     * @param a the item's first hash.
     * @param b its second.
     * @return whether every bit of the item is set.
     */
    @Override
    public boolean contains(final long a, final long b)
    {
        for (int i = 0; i < hashes; i++)
        {
            final long x = bit(a, b, i);
            if ((words.getLongPlain(x >>> 6) & (1L << x)) == 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Sets the item's bits and counts it when one was unset (the caller holds the chain's write lock).
     *
     * @param a the item's first hash.
     * @param b its second.
     * @return whether a bit was unset (the item is new to this layer).
     */
    @Override
    public boolean add(final long a, final long b)
    {
        boolean unset = false;
        for (int i = 0; i < hashes; i++)
        {
            final long x = bit(a, b, i);
            final long index = x >>> 6;
            final long word = words.getLongPlain(index);
            if ((word & (1L << x)) == 0)
            {
                words.putLongPlain(index, word | 1L << x);
                unset = true;
            }
        }
        if (unset)
        {
            segment.size(segment.size() + 1);
        }
        return unset;
    }
}
