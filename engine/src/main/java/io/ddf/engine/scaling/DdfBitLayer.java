package io.ddf.engine.scaling;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.redisbloom.BloomLink;

/**
 * ddf's Bloom layer: a bit array of RedisBloom's size for the layer's capacity and error rate, each of the item's
 * {@code k} bits drawn from its own remix of the item's hash and mapped onto the array by Lemire's reduction.
 *
 * <p>Why not RedisBloom's {@code (a + i·b) mod m}: with an array of {@code m} bits that is not prime, a step
 * {@code b} sharing a factor with {@code m} confines the item's bits to a coset, which raises the false positive rate
 * of small arrays well past the one asked for (measured: capacity 100 at 10^-4 gave 2·10^-4, twice the promise, in
 * {@code ChainErrorRateTest}; the remixed positions keep it below). Adds come from one thread at a time (the chain's
 * lock); stores are plain.
 */
final class DdfBitLayer implements ChainLayer
{
    private final ChainFile.Segment segment;
    private final MappedWords words;
    private final long bits;
    private final int hashes;
    private final BloomLink shape;

    /**
     * @param segment the layer's segment, its data {@code shape.bytes()} long.
     * @param shape   the bit array's shape.
     */
    DdfBitLayer(final ChainFile.Segment segment, final BloomLink shape)
    {
        this.segment = segment;
        this.shape = shape;
        this.words = new MappedWords(segment.data(), shape.bytes() / Long.BYTES);
        this.bits = shape.bits();
        this.hashes = shape.hashes();
    }

    private long bit(final long a, final int i)
    {
        return Mix.reduce(Mix.mix64(a + (i + 1) * Mix.GOLDEN_GAMMA), bits);
    }

    @Override
    public boolean contains(final long a, final long b)
    {
        for (int i = 0; i < hashes; i++)
        {
            final long x = bit(a, i);
            if ((words.getLongPlain(x >>> 6) & (1L << x)) == 0)
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean add(final long a, final long b)
    {
        boolean unset = false;
        for (int i = 0; i < hashes; i++)
        {
            final long x = bit(a, i);
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
    public BloomLink link()
    {
        return shape.withSize(segment.size());
    }

    @Override
    public ChainFile.Segment segment()
    {
        return segment;
    }
}
