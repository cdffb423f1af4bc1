package io.ddf.engine.scaling;

import io.ddf.engine.redisbloom.BloomLink;

/**
 * RedisBloom's Bloom layer, bit for bit: an item's bits are {@code (a + i·b) mod m} for {@code i < hashes}, in
 * unsigned 64-bit arithmetic, where {@code m} is {@code 2^n2} for a rounded layer and the bit count otherwise.
 */
final class BitLayer extends BitArrayLayer
{
    private final long bits;
    private final long mask;

    /**
     * @param segment the layer's segment, its data {@code shape.bytes()} long.
     * @param shape   the bit array's shape.
     */
    BitLayer(final ChainFile.Segment segment, final BloomLink shape)
    {
        super(segment, shape);
        this.bits = shape.bits();
        this.mask = shape.n2() > 0 ? (1L << shape.n2()) - 1 : 0;
    }

    @Override
    long bit(final long a, final long b, final int i)
    {
        final long x = a + i * b;
        return mask != 0 ? x & mask : Long.remainderUnsigned(x, bits);
    }
}
