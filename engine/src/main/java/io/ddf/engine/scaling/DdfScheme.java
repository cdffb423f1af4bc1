package io.ddf.engine.scaling;

import io.ddf.engine.hash.ElementHasher;
import io.ddf.engine.model.BlockedBloomModel;
import io.ddf.engine.redisbloom.BloomLink;
import org.agrona.DirectBuffer;

/**
 * ddf's own scaling Bloom filter: RedisBloom's capacities and error rates per layer, items hashed once with the
 * file's seeded XXH3, so that the daemon's filters share ddf's hashing. The segment kind names the layer's layout:
 * a chain made now has blocked layers ({@link DdfBlockedLayer}, kind {@value #BLOCKED_LAYER_KIND}); a chain made
 * before them keeps its bit arrays of RedisBloom's size ({@link DdfBitLayer}, kind {@value #BIT_LAYER_KIND}), and
 * grows with more of them, so that an existing file answers as it did.
 */
final class DdfScheme implements LayerScheme
{
    /** The file family. */
    static final int FAMILY = 3;
    /** The segment kind of a bit array of RedisBloom's size, indexed by remixes of ddf's hash (before kind 4). */
    static final int BIT_LAYER_KIND = 3;
    /** The segment kind of a blocked Bloom layer, ddf's layer since it landed. */
    static final int BLOCKED_LAYER_KIND = 4;

    private final int options;
    private final long seed;
    private final int layerKind;
    private final ElementHasher hasher;

    /**
     * @param options   the chain's option bits.
     * @param seed      the XXH3 seed.
     * @param layerKind the kind of the layers it appends: {@link #BLOCKED_LAYER_KIND}, or {@link #BIT_LAYER_KIND}
     *                  for a chain made before it.
     */
    DdfScheme(final int options, final long seed, final int layerKind)
    {
        if (layerKind != BIT_LAYER_KIND && layerKind != BLOCKED_LAYER_KIND)
        {
            throw new IllegalArgumentException("no ddf Bloom layer of kind " + layerKind);
        }
        this.options = options;
        this.seed = seed;
        this.layerKind = layerKind;
        this.hasher = ElementHasher.of(ElementHasher.XXH3, seed, null);
    }

    /** @return the XXH3 seed. */
    long seed()
    {
        return seed;
    }

    /** @return whether its layers are blocked ones. */
    boolean blocked()
    {
        return layerKind == BLOCKED_LAYER_KIND;
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
        if (layerKind == BLOCKED_LAYER_KIND)
        {
            return DdfBlockedLayer.append(file, BLOCKED_LAYER_KIND, shape, DdfBlockedLayer.size(shape));
        }
        return new DdfBitLayer(LayerScheme.appendShape(file, BIT_LAYER_KIND, shape), shape);
    }

    /**
     * @param file     the chain's file.
     * @param shape    the layer's RedisBloom shape.
     * @param geometry the blocked layer a dump recorded for it.
     * @return the layer appended, empty.
     */
    ChainLayer append(final ChainFile file, final BloomLink shape, final BlockedBloomModel geometry)
    {
        return DdfBlockedLayer.append(file, BLOCKED_LAYER_KIND, shape, geometry);
    }

    @Override
    public ChainLayer layer(final ChainFile.Segment segment)
    {
        if (segment.kind() == BLOCKED_LAYER_KIND)
        {
            return DdfBlockedLayer.open(segment);
        }
        return new DdfBitLayer(segment, LayerScheme.checkedShape(segment, BIT_LAYER_KIND, "ddf Bloom layer"));
    }
}
