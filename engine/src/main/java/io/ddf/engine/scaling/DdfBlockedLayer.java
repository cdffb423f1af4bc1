package io.ddf.engine.scaling;

import io.ddf.engine.bloom.BlockedBloom;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.model.BlockedBloomModel;
import io.ddf.engine.redisbloom.BloomLink;

/**
 * ddf's Bloom layer since the blocked layer (segment kind 4): a {@link BlockedBloom} of B blocks of 64 bytes, each
 * item's bits in one block (two for the smallest error rates), sized by {@link BlockedBloomModel#size(long, double)}
 * to keep the layer's error rate at its capacity. A lookup reads one cache line per layer where a bit array reads
 * {@code hashes} of them; the chain's capacities and error rates stay RedisBloom's ({@link #link()}), the bytes are
 * the blocked layer's ({@link #reported()}).
 *
 * <p>Adds run one at a time under the chain's lock, so the words are owned (a plain load and a release store per
 * word missing bits); lookups beside them read each word with a volatile load, as {@link BitArrayLayer}'s do.
 */
final class DdfBlockedLayer implements ChainLayer
{
    /** Shape words 7, 8, 9: blocks, hash functions, blocks per item (0 to 6 are the RedisBloom shape). */
    static final int W_BLOCKS = 7;
    static final int W_HASHES = 8;
    static final int W_PER_ITEM = 9;

    private final ChainFile.Segment segment;
    private final BlockedBloom bloom;
    private final BloomLink shape;

    private DdfBlockedLayer(final ChainFile.Segment segment, final BloomLink shape, final long blocks, final int hashes,
        final int perItem)
    {
        this.segment = segment;
        this.shape = shape;
        final MappedWords words = new MappedWords(segment.data(), blocks * BlockedBloom.BLOCK_WORDS, true);
        this.bloom = new BlockedBloom(words, blocks, hashes, perItem);
    }

    /**
     * @param shape the RedisBloom shape of the layer (its capacity and error rate).
     * @return the blocked layer that keeps that error rate at that capacity.
     */
    static BlockedBloomModel size(final BloomLink shape)
    {
        final SizeKey key = new SizeKey(shape.entries(), Double.doubleToRawLongBits(shape.error()));
        final BlockedBloomModel known = SIZES.get(key);
        if (known != null)
        {
            return known;
        }
        final BlockedBloomModel sized = BlockedBloomModel.size(shape.entries(), shape.error());
        if (SIZES.size() < MAX_SIZES)
        {
            SIZES.putIfAbsent(key, sized);
        }
        return sized;
    }

    /**
     * Sizings already made, by capacity and error rate: a chain grows on the thread of its add (an event loop), and
     * sizing a layer takes 1 to 13 ms warm (100 ms on the first call of a JVM; {@code BlockedBloomModel} sums the
     * rate over the items per block), where the keys BF.ADD makes with the server's defaults all grow through the
     * same sequence of layers. The sizing is a pure function of the two, so a remembered one is the one computed.
     */
    private static final java.util.concurrent.ConcurrentHashMap<SizeKey, BlockedBloomModel> SIZES =
        new java.util.concurrent.ConcurrentHashMap<>();
    private static final int MAX_SIZES = 4096;

    private record SizeKey(long entries, long errorBits)
    {
    }

    /**
     * @param file     the chain's file.
     * @param kind     the segment kind.
     * @param shape    the layer's RedisBloom shape.
     * @param geometry its blocks, hash functions and blocks per item.
     * @return the new layer, empty.
     */
    static DdfBlockedLayer append(final ChainFile file, final int kind, final BloomLink shape,
        final BlockedBloomModel geometry)
    {
        final long[] words = java.util.Arrays.copyOf(LayerScheme.shapeWords(shape), W_PER_ITEM + 1);
        words[W_BLOCKS] = geometry.blocks();
        words[W_HASHES] = geometry.hashFunctions();
        words[W_PER_ITEM] = geometry.blocksPerItem();
        final ChainFile.Segment segment = file.append(kind, geometry.blocks() * BlockedBloom.BLOCK_WORDS * Long.BYTES,
            words, shape.size());
        return new DdfBlockedLayer(segment, shape, geometry.blocks(), geometry.hashFunctions(),
            geometry.blocksPerItem());
    }

    /**
     * @param segment a segment read from the file.
     * @return the layer over it.
     * @throws IllegalArgumentException when its header does not describe a blocked layer of its bytes.
     */
    static DdfBlockedLayer open(final ChainFile.Segment segment)
    {
        final BloomLink shape = LayerScheme.recordedShape(segment);
        final long blocks = segment.shape(W_BLOCKS);
        final long hashes = segment.shape(W_HASHES);
        final long perItem = segment.shape(W_PER_ITEM);
        if (blocks < 1 || blocks > BlockedBloomModel.MAX_BLOCKS || hashes < 1 || hashes > 20 || perItem < 1 ||
            perItem > 2 || segment.dataBytes() != blocks * BlockedBloom.BLOCK_WORDS * Long.BYTES)
        {
            throw new IllegalArgumentException("layer " + segment.index() + " is not a blocked Bloom layer of its " +
                "bytes (" + blocks + " blocks, k " + hashes + ", d " + perItem + ", " + segment.dataBytes() + " bytes)");
        }
        return new DdfBlockedLayer(segment, shape, blocks, (int)hashes, (int)perItem);
    }

    /** @return the layer's blocks, hash functions and blocks per item. */
    BlockedBloomModel geometry()
    {
        return new BlockedBloomModel(bloom.blocks(), bloom.perBlock() * bloom.blocksPerItem(), bloom.blocksPerItem());
    }

    @Override
    public boolean contains(final long a, final long b)
    {
        return bloom.contains(a);
    }

    @Override
    public boolean add(final long a, final long b)
    {
        if (bloom.insert(a))
        {
            segment.size(segment.size() + 1);
            return true;
        }
        return false;
    }

    @Override
    public long touch(final long a)
    {
        return bloom.touch(a);
    }

    /**
     * A replay lane's share of an add ({@link BlockedBloom#insertPart}): the item's bits in the blocks of its part,
     * the count left to the lane's merge.
     */
    void addPart(final long a, final int part, final int parts)
    {
        bloom.insertPart(a, part, parts);
    }

    /** @return the layer's blocks (a sorted replay's {@link ChainLines} sets them). */
    BlockedBloom bloom()
    {
        return bloom;
    }

    /** @return {@link BlockedBloom#touchPart}. */
    long touchPart(final long a, final int part, final int parts)
    {
        return bloom.touchPart(a, part, parts);
    }

    @Override
    public BloomLink link()
    {
        return shape.withSize(segment.size());
    }

    @Override
    public BloomLink reported()
    {
        final long bits = bloom.blocks() * BlockedBloomModel.BLOCK_BITS;
        return new BloomLink(bits / Byte.SIZE, bits, segment.size(), shape.error(), (double)bits / shape.entries(),
            bloom.perBlock() * bloom.blocksPerItem(), shape.entries(), 0);
    }

    @Override
    public ChainFile.Segment segment()
    {
        return segment;
    }
}
