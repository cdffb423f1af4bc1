package io.ddf.engine.scaling;

import io.ddf.engine.hash.ElementHasher;
import io.ddf.engine.redisbloom.BloomLink;
import org.agrona.DirectBuffer;

/**
 * ddf's own scaling Bloom filter: RedisBloom's capacities and error rates per layer, items hashed once with the
 * file's seeded XXH3, so that the daemon's filters share ddf's hashing.
 * Each layer is, for now, a Bloom bit array of RedisBloom's size for its capacity and error rate ({@link DdfBitLayer});
 * the segment kind names the layout, so other layouts can join without touching existing files.
 */
final class DdfScheme implements LayerScheme
{
    /** The file family. */
    static final int FAMILY = 3;
    /** The segment kind of a bit array of RedisBloom's size, indexed by remixes of ddf's hash. */
    static final int BIT_LAYER_KIND = 3;

    private final int options;
    private final long seed;
    private final ElementHasher hasher;

    DdfScheme(final int options, final long seed)
    {
        this.options = options;
        this.seed = seed;
        this.hasher = ElementHasher.of(ElementHasher.XXH3, seed, null);
    }

    /** @return the XXH3 seed. */
    long seed()
    {
        return seed;
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
        return hasher.hash(item, offset, length);
    }

    @Override
    public long second(final DirectBuffer item, final int offset, final int length, final long first)
    {
        return 0; // the layers derive every bit from the first value
    }

    @Override
    public ChainLayer append(final ChainFile file, final BloomLink shape)
    {
        return new DdfBitLayer(LayerScheme.appendShape(file, BIT_LAYER_KIND, shape), shape);
    }

    @Override
    public ChainLayer layer(final ChainFile.Segment segment)
    {
        return new DdfBitLayer(segment, LayerScheme.checkedShape(segment, BIT_LAYER_KIND, "ddf Bloom layer"));
    }
}
