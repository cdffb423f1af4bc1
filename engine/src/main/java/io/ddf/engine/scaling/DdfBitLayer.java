package io.ddf.engine.scaling;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.redisbloom.BloomLink;

/**
 * ddf's Bloom layer: a bit array of RedisBloom's size for the layer's capacity and error rate, each of the item's
 * {@code k} bits drawn from its own remix of the item's hash and mapped onto the array by Lemire's reduction.
 *
 * <p>Why not RedisBloom's {@code (a + i·b) mod m}: with an array of {@code m} bits that is not prime, a step
 * {@code b} sharing a factor with {@code m} confines the item's bits to a coset, which raises the false positive rate
 * of small arrays well past the one asked for (measured: capacity 100 at 10^-4 gave 2·10^-4, twice the promise, in
 * {@code ChainErrorRateTest}; the remixed positions keep it below).
 */
final class DdfBitLayer extends BitArrayLayer
{
    private final long bits;

    /**
     * @param segment the layer's segment, its data {@code shape.bytes()} long.
     * @param shape   the bit array's shape.
     */
    DdfBitLayer(final ChainFile.Segment segment, final BloomLink shape)
    {
        super(segment, shape);
        this.bits = shape.bits();
    }

    @Override
    long bit(final long a, final long b, final int i)
    {
        return Mix.reduce(Mix.mix64(a + (i + 1) * Mix.GOLDEN_GAMMA), bits);
    }
}
