package io.ddf.engine.scaling;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.redisbloom.BloomLink;

/**
 * A Bloom layer over a mapped bit array of RedisBloom's layout (bit {@code x} is bit {@code x mod 64} of 64-bit word
 * {@code x / 64}, little-endian, so the bytes are RedisBloom's dump bytes): an item is in the layer when its
 * {@code hashes} bits are set. Where those bits are is the subclass's ({@link #bit}).
 *
 * <p>Stores are plain: the chain lets one thread at a time add ({@link BloomChain}); readers may run at the same
 * time and see an item's bits appear one by one, answering "absent" until the add is complete.
 */
abstract class BitArrayLayer implements ChainLayer
{
    private final ChainFile.Segment segment;
    private final MappedWords words;
    private final int hashes;
    private final BloomLink shape;

    /**
     * @param segment the layer's segment, its data {@code shape.bytes()} long.
     * @param shape   the bit array's shape.
     */
    BitArrayLayer(final ChainFile.Segment segment, final BloomLink shape)
    {
        this.segment = segment;
        this.shape = shape;
        this.words = new MappedWords(segment.data(), shape.bytes() / Long.BYTES);
        this.hashes = shape.hashes();
    }

    /**
     * @param a an item's first value.
     * @param b its second.
     * @param i which of its bits, below the hash count.
     * @return the bit's index, below the array's bits.
     */
    abstract long bit(long a, long b, int i);

    @Override
    public final boolean contains(final long a, final long b)
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

    @Override
    public final boolean add(final long a, final long b)
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

    @Override
    public final BloomLink link()
    {
        return shape.withSize(segment.size());
    }

    @Override
    public final ChainFile.Segment segment()
    {
        return segment;
    }
}
