package io.ddf.engine.scaling;

import io.ddf.engine.hash.Murmur2;
import io.ddf.engine.redisbloom.BloomChainHeader;
import io.ddf.engine.redisbloom.BloomLink;
import io.ddf.engine.redisbloom.DumpChunks;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * RedisBloom's scaling Bloom filter, in a mapped file that grows: a chain of {@link BitLayer}s with RedisBloom's
 * hashing, bit layout, capacities and error rates, so that a filter loaded from a RedisBloom dump answers every
 * query as RedisBloom did, and a filter made here dumps chunks RedisBloom loads.
 *
 * <p>The rules are RedisBloom 2.4's ({@code sb.c}): the first layer gets the error rate halved (kept whole when
 * {@code NONSCALING}); an item already in any layer is not added; the newest layer takes new items until it holds
 * its capacity, then a layer of {@code capacity · expansion} items at half the error rate is appended, or, when the
 * chain does not scale, the item is refused ({@link AddResult#FULL}). Items are hashed with MurmurHash64A (seed
 * {@code 0xc6a4a7935bd1e995}, then the first hash as the second's seed) when the chain has the 64-bit option, as
 * every chain RedisBloom 2.x makes has, else with 32-bit MurmurHash2 (seed {@code 0x9747b28c}) likewise.
 *
 * <p>Concurrency: adds take the chain's lock; {@code contains} reads without it, from the layers published so far.
 */
public final class RedisBloomChain implements AutoCloseable
{
    /** The family code of the file's header. */
    public static final int FAMILY = 1;
    /** The segment kind of a layer. */
    static final int LAYER_KIND = 1;
    /** RedisBloom halves the error rate of each new layer. */
    public static final double TIGHTENING = 0.5;
    private static final long SEED64 = 0xc6a4a7935bd1e995L;
    private static final int SEED32 = 0x9747b28c;

    /** What an add did. */
    public enum AddResult
    {
        /** The item was new and is now in the newest layer. */
        ADDED,
        /** The item was there already (or a false positive says so): nothing changed. */
        EXISTS,
        /** A chain that does not scale is full: nothing changed ({@code ERR non scaling filter is full}). */
        FULL,
        /**
         * The newest layer is full and a next one cannot be made (an expansion of 0, a capacity past 2^64, or the
         * most layers a file holds): nothing changed. RedisBloom answers such an add with 1.
         */
        NOT_GROWN
    }

    private final ChainFile file;
    private final int options;
    private final int growth;
    private volatile BitLayer[] layers;

    private RedisBloomChain(final ChainFile file)
    {
        this.file = file;
        final long params = file.param(0);
        this.options = (int)params;
        this.growth = (int)(params >>> 32);
        final List<ChainFile.Segment> segments = file.segments();
        final BitLayer[] found = new BitLayer[segments.size()];
        for (int i = 0; i < found.length; i++)
        {
            found[i] = layerOf(segments.get(i));
        }
        this.layers = found;
    }

    private static BitLayer layerOf(final ChainFile.Segment segment)
    {
        if (segment.kind() != LAYER_KIND)
        {
            throw new IllegalArgumentException("layer " + segment.index() + " is of kind " + segment.kind() +
                ", not a RedisBloom Bloom layer");
        }
        final BloomLink shape = new BloomLink(segment.dataBytes(), segment.shape(5), segment.size(),
            Double.longBitsToDouble(segment.shape(1)), Double.longBitsToDouble(segment.shape(2)),
            (int)segment.shape(3), segment.shape(0), (int)segment.shape(4));
        shape.validate();
        return new BitLayer(segment, shape);
    }

    /**
     * Makes a new, empty chain as {@code BF.RESERVE} does.
     *
     * @param path       the file; must not exist.
     * @param capacity   the first layer's capacity, at least 1.
     * @param error      the error rate asked for, in (0, 1).
     * @param nonScaling whether the chain refuses items once full instead of growing.
     * @param expansion  the growth factor of each new layer's capacity.
     * @return the chain, open.
     * @throws IllegalArgumentException when RedisBloom could not make such a filter.
     */
    public static RedisBloomChain create(final Path path, final long capacity, final double error,
        final boolean nonScaling, final int expansion)
    {
        final int options = BloomLink.NOROUND | BloomLink.FORCE64 | (nonScaling ? BloomLink.NO_SCALING : 0);
        final BloomLink first = BloomLink.create(capacity, error * (nonScaling ? 1 : TIGHTENING), options);
        return fromHeader(path, new BloomChainHeader(options, expansion, List.of(first)));
    }

    /**
     * Makes a chain with the layers a dump's header chunk names, their bits zero until the data chunks come.
     *
     * @param path   the file; must not exist.
     * @param header the header, validated.
     * @return the chain, open.
     */
    public static RedisBloomChain fromHeader(final Path path, final BloomChainHeader header)
    {
        final ChainFile file = ChainFile.create(path, FAMILY, chain ->
        {
            chain.param(0, (header.options() & 0xFFFF_FFFFL) | (long)header.growth() << 32);
            for (final BloomLink link : header.links())
            {
                appendLayer(chain, link);
            }
        });
        return new RedisBloomChain(file);
    }

    /**
     * @param path the file of a chain.
     * @return the chain, open.
     */
    public static RedisBloomChain open(final Path path)
    {
        final ChainFile file = ChainFile.open(path, FAMILY);
        try
        {
            return new RedisBloomChain(file);
        }
        catch (final RuntimeException ex)
        {
            file.close();
            throw new io.ddf.persistence.FilterFileException(io.ddf.persistence.FilterFileException.Reason.CORRUPT,
                path, ex.getMessage(), ex);
        }
    }

    private static ChainFile.Segment appendLayer(final ChainFile chain, final BloomLink link)
    {
        return chain.append(LAYER_KIND, link.bytes(), new long[] {link.entries(), Double.doubleToRawLongBits(link.error()),
            Double.doubleToRawLongBits(link.bpe()), link.hashes(), link.n2(), link.bits()}, link.size());
    }

    /**
     * @param item   the item's bytes.
     * @param offset of the first.
     * @param length how many.
     * @return what the add did.
     */
    public AddResult add(final DirectBuffer item, final int offset, final int length)
    {
        final long a;
        final long b;
        if ((options & BloomLink.FORCE64) != 0)
        {
            a = Murmur2.hash64(item, offset, length, SEED64);
            b = Murmur2.hash64(item, offset, length, a);
        }
        else
        {
            a = Murmur2.hash32(item, offset, length, SEED32);
            b = Murmur2.hash32(item, offset, length, (int)a);
        }
        return addHashed(a, b);
    }

    /**
     * @param item the item's bytes.
     * @return what the add did.
     */
    public AddResult add(final byte[] item)
    {
        return add(new UnsafeBuffer(item), 0, item.length);
    }

    private synchronized AddResult addHashed(final long a, final long b)
    {
        BitLayer[] current = layers;
        for (int i = current.length - 1; i >= 0; i--)
        {
            if (current[i].contains(a, b))
            {
                return AddResult.EXISTS;
            }
        }
        BitLayer newest = current[current.length - 1];
        if (newest.size() >= newest.entries())
        {
            if ((options & BloomLink.NO_SCALING) != 0)
            {
                return AddResult.FULL;
            }
            final BitLayer grown = grow(newest);
            if (grown == null)
            {
                return AddResult.NOT_GROWN;
            }
            newest = grown;
        }
        return newest.add(a, b) ? AddResult.ADDED : AddResult.EXISTS;
    }

    private BitLayer grow(final BitLayer newest)
    {
        final long entries;
        final BloomLink link;
        try
        {
            entries = Math.multiplyExact(newest.entries(), (long)growth);
            link = BloomLink.create(entries, newest.link().error() * TIGHTENING, options);
        }
        catch (final ArithmeticException | IllegalArgumentException cannot)
        {
            return null;
        }
        if (layers.length >= ChainFile.MAX_LAYERS)
        {
            return null;
        }
        final BitLayer layer = new BitLayer(appendLayer(file, link), link);
        final BitLayer[] grown = java.util.Arrays.copyOf(layers, layers.length + 1);
        grown[grown.length - 1] = layer;
        layers = grown;
        return layer;
    }

    /**
     * @param item   the item's bytes.
     * @param offset of the first.
     * @param length how many.
     * @return whether the item may have been added (every bit of it set in some layer).
     */
    public boolean contains(final DirectBuffer item, final int offset, final int length)
    {
        final long a;
        final long b;
        if ((options & BloomLink.FORCE64) != 0)
        {
            a = Murmur2.hash64(item, offset, length, SEED64);
            b = Murmur2.hash64(item, offset, length, a);
        }
        else
        {
            a = Murmur2.hash32(item, offset, length, SEED32);
            b = Murmur2.hash32(item, offset, length, (int)a);
        }
        final BitLayer[] current = layers;
        for (int i = current.length - 1; i >= 0; i--)
        {
            if (current[i].contains(a, b))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param item the item's bytes.
     * @return whether the item may have been added.
     */
    public boolean contains(final byte[] item)
    {
        return contains(new UnsafeBuffer(item), 0, item.length);
    }

    /** @return the chain as a dump's header chunk describes it, with the current item counts. */
    public BloomChainHeader header()
    {
        final BitLayer[] current = layers;
        final List<BloomLink> links = new ArrayList<>(current.length);
        for (final BitLayer layer : current)
        {
            links.add(layer.link());
        }
        return new BloomChainHeader(options, growth, links);
    }

    /** @return BF.INFO's Capacity: the layers' capacities summed. */
    public long capacity()
    {
        long capacity = 0;
        for (final BitLayer layer : layers)
        {
            capacity += layer.entries();
        }
        return capacity;
    }

    /** @return items added. */
    public long size()
    {
        long size = 0;
        for (final BitLayer layer : layers)
        {
            size += layer.size();
        }
        return size;
    }

    /** @return layers. */
    public int layerCount()
    {
        return layers.length;
    }

    /** @return whether the chain refuses items once full. */
    public boolean nonScaling()
    {
        return (options & BloomLink.NO_SCALING) != 0;
    }

    /** @return the expansion factor. */
    public int expansion()
    {
        return growth;
    }

    /** @return the option bits. */
    public int options()
    {
        return options;
    }

    /**
     * @return {@code BF.DEBUG}'s lines: the chain's size, then each layer's bytes, bits, hashes, hash width,
     *         capacity, size and error rate, in RedisBloom's words.
     */
    public List<String> debug()
    {
        final List<String> lines = new ArrayList<>();
        lines.add("size:" + size());
        for (final BitLayer layer : layers)
        {
            final BloomLink link = layer.link();
            lines.add("bytes:" + link.bytes() + " bits:" + Long.toUnsignedString(link.bits()) + " hashes:" +
                link.hashes() + " hashwidth:" + ((options & BloomLink.FORCE64) != 0 ? 64 : 32) + " capacity:" +
                link.entries() + " size:" + link.size() + " ratio:" + CFormat.g(link.error()));
        }
        return lines;
    }

    /** @return each layer's bytes, oldest first (what the dump's data chunks cover). */
    public long[] layerBytes()
    {
        final BitLayer[] current = layers;
        final long[] bytes = new long[current.length];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = current[i].link().bytes();
        }
        return bytes;
    }

    /**
     * @param iter a {@code BF.SCANDUMP} iterator, at least 1.
     * @return the data chunk there (with the iterator to answer), or null at the end.
     */
    public synchronized DumpChunk dump(final long iter)
    {
        final DumpChunks.Chunk chunk = DumpChunks.bloomChunk(layerBytes(), iter, DumpChunks.MAX_CHUNK);
        if (chunk == null)
        {
            return null;
        }
        final byte[] data = new byte[(int)chunk.length()];
        new UnsafeBuffer(layers[chunk.layer()].segment().data() + chunk.offset(), data.length).getBytes(0, data);
        return new DumpChunk(chunk.next(), data);
    }

    /**
     * Loads a {@code BF.LOADCHUNK} data chunk into its place; nothing is written when it has none.
     *
     * @param iter   the iterator it came with.
     * @param data   its bytes.
     * @param offset of the first.
     * @param length how many.
     * @throws io.ddf.engine.redisbloom.RedisBloomFormatException with RedisBloom's reply when it has no place.
     */
    public synchronized void load(final long iter, final DirectBuffer data, final int offset, final int length)
    {
        final DumpChunks.Chunk chunk = DumpChunks.bloomTarget(layerBytes(), iter, length);
        new UnsafeBuffer(layers[chunk.layer()].segment().data() + chunk.offset(), length).putBytes(0, data, offset, length);
    }

    /** @return the file's path. */
    public Path path()
    {
        return file.path();
    }

    /** @return the file's bytes on disk. */
    public long fileBytes()
    {
        return file.fileBytes();
    }

    /** Forces the file to the device. */
    public void flush()
    {
        file.flush();
    }

    @Override
    public void close()
    {
        file.close();
    }
}
