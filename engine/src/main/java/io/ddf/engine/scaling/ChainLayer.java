package io.ddf.engine.scaling;

import io.ddf.engine.redisbloom.BloomLink;

/**
 * A layer of a scaling Bloom filter: its bits over a mapped segment, judging items by the two 64-bit values its
 * {@link LayerScheme} derives from them. Adds come from one thread at a time (the chain's lock); lookups may run
 * beside them.
 */
interface ChainLayer
{
    /**
     * @param a the item's first value.
     * @param b its second.
     * @return whether the item may be in the layer.
     */
    boolean contains(long a, long b);

    /**
     * Records the item and counts it when it was not there.
     *
     * @param a the item's first value.
     * @param b its second.
     * @return whether it was new to the layer.
     */
    boolean add(long a, long b);

    /**
     * A plain read of the line an add of the item will write, which starts its cache miss ahead of the add (a
     * replay's group, {@code ReplayTarget.touch}). Layers whose item spans many lines touch nothing.
     *
     * @param a the item's first value.
     * @return the word read (0 when none).
     */
    default long touch(final long a)
    {
        return 0;
    }

    /** @return the items the layer holds. */
    default long size()
    {
        return segment().size();
    }

    /** @return the layer's RedisBloom shape (what BF.DEBUG and BF.INFO report), with its item count. */
    BloomLink link();

    /**
     * @return the layer as BF.DEBUG and BF.INFO report it: its capacity, error rate and items, with the bytes, bits
     *         and hash functions it really has (for a bit array of RedisBloom's size, {@link #link()}).
     */
    default BloomLink reported()
    {
        return link();
    }

    /** @return the layer's mapped segment (its data is what a dump carries). */
    ChainFile.Segment segment();
}
