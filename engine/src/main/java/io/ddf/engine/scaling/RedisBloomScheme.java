package io.ddf.engine.scaling;

import io.ddf.engine.hash.Murmur2;
import io.ddf.engine.redisbloom.BloomLink;
import org.agrona.DirectBuffer;

/**
 * RedisBloom's own layers, bit for bit: items hashed with MurmurHash64A (seed {@code 0xc6a4a7935bd1e995}, then the
 * first hash as the second's seed) when the chain has the 64-bit option, as every chain RedisBloom 2.x makes has,
 * else with 32-bit MurmurHash2 (seed {@code 0x9747b28c}) likewise; each layer RedisBloom's bit array
 * ({@link BitLayer}).
 */
final class RedisBloomScheme implements LayerScheme
{
    /** The file family. */
    static final int FAMILY = 1;
    /** The segment kind of its layers. */
    static final int LAYER_KIND = 1;
    private static final long SEED64 = 0xc6a4a7935bd1e995L;
    private static final int SEED32 = 0x9747b28c;

    private final int options;
    private final boolean wide;

    RedisBloomScheme(final int options)
    {
        this.options = options;
        this.wide = (options & BloomLink.FORCE64) != 0;
    }

    @Override
    public int family()
    {
        return FAMILY;
    }

    @Override
    public int options()
    {
        return options;
    }

    @Override
    public long first(final DirectBuffer item, final int offset, final int length)
    {
        return wide ? Murmur2.hash64(item, offset, length, SEED64) : Murmur2.hash32(item, offset, length, SEED32);
    }

    @Override
    public long second(final DirectBuffer item, final int offset, final int length, final long first)
    {
        return wide ? Murmur2.hash64(item, offset, length, first) : Murmur2.hash32(item, offset, length, (int)first);
    }

    @Override
    public ChainLayer append(final ChainFile file, final BloomLink shape)
    {
        return new BitLayer(LayerScheme.appendShape(file, LAYER_KIND, shape), shape);
    }

    @Override
    public ChainLayer layer(final ChainFile.Segment segment)
    {
        return new BitLayer(segment, LayerScheme.checkedShape(segment, LAYER_KIND, "RedisBloom Bloom layer"));
    }
}
