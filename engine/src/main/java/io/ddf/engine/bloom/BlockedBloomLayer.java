package io.ddf.engine.bloom;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;

/**
 * One non-forgetting blocked Bloom layer that counts the items it inserts: RedisBloom's NONSCALING filter, and each
 * layer of a scaling chain (issue 22). Size it with {@code model/BlockedBloomModel.size(capacity, errorRate)}
 * (its blocks, hash functions and blocks per item); the region holds the blocks, the count lives in a word its owner gives (a chain keeps its layers'
 * counts together in its own state).
 *
 * <p>{@code stream} sets the item's bits and answers DUPLICATE iff none was missing (RedisBloom's BF.ADD answering
 * 0), so a duplicate reads one cache line (two for d = 2) and writes nothing; an item judged new adds 1 to the count.
 * Shared: a compare-and-swap per word whose bits are missing and one atomic add per new item (a chain's decision to
 * add a layer needs an exact count); owned: plain loads and release stores, no locked instruction. Two threads
 * streaming the same new item at once may both get UNSEEN and both count it, as with RedisBloom's replicas.
 */
public final class BlockedBloomLayer implements FilterCore
{
    private final BlockedBloom bloom;
    private final MappedWords count;
    private final long countIndex;

    /**
     * @param bloom      the layer's blocks.
     * @param count      the words holding the count.
     * @param countIndex which of them.
     */
    public BlockedBloomLayer(final BlockedBloom bloom, final MappedWords count, final long countIndex)
    {
        this.bloom = bloom;
        this.count = count;
        this.countIndex = countIndex;
    }

    /**
     * @param region        the blocks' region, 8·B words, line-aligned.
     * @param blocks        B.
     * @param hashFunctions k.
     * @param blocksPerItem d.
     * @param count         the words holding the count.
     * @param countIndex    which of them.
     * @return the layer.
     */
    public static BlockedBloomLayer of(final MappedWords region, final long blocks, final int hashFunctions,
        final int blocksPerItem, final MappedWords count, final long countIndex)
    {
        return new BlockedBloomLayer(new BlockedBloom(region, blocks, hashFunctions, blocksPerItem), count, countIndex);
    }

    @Override
    public boolean stream(final long hash)
    {
        if (bloom.insert(hash))
        {
            count.getAndAddLong(countIndex, 1);
            return false;
        }
        return true;
    }

    @Override
    public boolean contains(final long hash)
    {
        return bloom.contains(hash);
    }

    @Override
    public long touch(final long hash)
    {
        return bloom.touch(hash);
    }

    /** @return items inserted (judged new) since the layer was made or cleared. */
    public long count()
    {
        return count.getLongVolatile(countIndex);
    }

    /** Zeroes the blocks and the count; not atomic with respect to concurrent streams. */
    @Override
    public void clear()
    {
        bloom.clear();
        count.putLongRelease(countIndex, 0);
    }
}
