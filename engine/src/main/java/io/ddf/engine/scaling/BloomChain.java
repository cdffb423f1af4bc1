package io.ddf.engine.scaling;

import io.ddf.engine.changelog.KindOps;
import io.ddf.engine.model.BlockedBloomModel;
import io.ddf.engine.redisbloom.BloomChainHeader;
import io.ddf.engine.redisbloom.BloomLink;
import io.ddf.engine.redisbloom.DumpChunks;
import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.log.LogReader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A scaling Bloom filter with RedisBloom's capacity semantics, in a mapped file that grows: a chain of layers, the
 * newest taking new items until it holds its capacity, then a next one of {@code capacity · expansion} items at half
 * the error rate; a chain that does not scale refuses items once full ({@link AddResult#FULL}). The first layer gets
 * the error rate halved (kept whole when {@code NONSCALING}); an item already in any layer is not added. These are
 * RedisBloom 2.4's rules ({@code sb.c}).
 *
 * <p>Two schemes share them: {@link #redisBloom RedisBloom's own} (its hashing and bit layout, so a filter loaded from
 * a RedisBloom dump answers every query as RedisBloom did, and dumps chunks RedisBloom loads) and
 * {@link #create ddf's} (XXH3 under the file's seed, each layer a blocked Bloom layer sized to keep its error rate:
 * one cache line per layer per lookup). Either way the layers' capacities and error rates are RedisBloom's
 * ({@link #shapes}); {@code BF.INFO}'s Size and {@code BF.DEBUG} report the bytes and hash functions the layers have
 * ({@link #reportedShapes}), RedisBloom's own for its layout, and {@link #fileBytes} what the file takes.
 *
 * <p>Concurrency: adds take the chain's lock; {@code contains} reads without it, from the layers published so far.
 */
public final class BloomChain extends ScalingFilter
{
    /** RedisBloom halves the error rate of each new layer. */
    public static final double TIGHTENING = 0.5;
    /** The file family of RedisBloom's chains. */
    public static final int REDISBLOOM_FAMILY = RedisBloomScheme.FAMILY;
    /** The file family of ddf's chains. */
    public static final int DDF_FAMILY = DdfScheme.FAMILY;
    /** Parameter words of the file's header. */
    private static final int OPTIONS_AND_GROWTH = 0;
    private static final int SEED = 1;

    private final LayerScheme scheme;
    private final int growth;
    private volatile ChainLayer[] layers;

    private BloomChain(final ChainFile file, final LayerScheme scheme)
    {
        super(file);
        this.scheme = scheme;
        this.growth = (int)(file.param(OPTIONS_AND_GROWTH) >>> 32);
        final List<ChainFile.Segment> segments = file.segments();
        final ChainLayer[] found = new ChainLayer[segments.size()];
        for (int i = 0; i < found.length; i++)
        {
            found[i] = scheme.layer(segments.get(i));
        }
        if (found.length == 0)
        {
            throw new IllegalArgumentException("a chain without a layer");
        }
        this.layers = found;
    }

    private static int options(final boolean nonScaling)
    {
        return BloomLink.NOROUND | BloomLink.FORCE64 | (nonScaling ? BloomLink.NO_SCALING : 0);
    }

    private static BloomLink firstShape(final LayerScheme scheme, final long capacity, final double error,
        final boolean nonScaling)
    {
        return scheme.shape(capacity, error * (nonScaling ? 1 : TIGHTENING));
    }

    /**
     * Makes ddf's scaling filter, as {@code BF.RESERVE} does by default.
     *
     * @param path       the file; must not exist.
     * @param capacity   the first layer's capacity, at least 1.
     * @param error      the error rate asked for, in (0, 1).
     * @param nonScaling whether the chain refuses items once full instead of growing.
     * @param expansion  the growth factor of each new layer's capacity.
     * @param seed       the XXH3 seed.
     * @return the chain, open.
     * @throws IllegalArgumentException when RedisBloom could not make such a filter.
     */
    public static BloomChain create(final Path path, final long capacity, final double error,
        final boolean nonScaling, final int expansion, final long seed)
    {
        return create(path, capacity, error, nonScaling, expansion, seed, DdfScheme.BLOCKED_LAYER_KIND);
    }

    /**
     * {@link #create(Path, long, double, boolean, int, long)} with the layers of a given kind: the bit arrays of
     * chains made before the blocked layer ({@link DdfScheme#BIT_LAYER_KIND}), for the golden file of that format.
     */
    static BloomChain create(final Path path, final long capacity, final double error, final boolean nonScaling,
        final int expansion, final long seed, final int layerKind)
    {
        final DdfScheme scheme = new DdfScheme(options(nonScaling), seed, layerKind);
        final BloomLink first = firstShape(scheme, capacity, error, nonScaling);
        return make(path, scheme, expansion, List.of(first), null);
    }

    /**
     * Makes a RedisBloom chain, empty, as RedisBloom's {@code BF.RESERVE} makes it.
     *
     * @param path       the file; must not exist.
     * @param capacity   the first layer's capacity, at least 1.
     * @param error      the error rate asked for, in (0, 1).
     * @param nonScaling whether the chain refuses items once full instead of growing.
     * @param expansion  the growth factor of each new layer's capacity.
     * @return the chain, open.
     */
    public static BloomChain redisBloom(final Path path, final long capacity, final double error,
        final boolean nonScaling, final int expansion)
    {
        final RedisBloomScheme scheme = new RedisBloomScheme(options(nonScaling));
        return make(path, scheme, expansion, List.of(firstShape(scheme, capacity, error, nonScaling)), null);
    }

    /**
     * Makes a RedisBloom chain with the layers a dump's header chunk names, their bits zero until the data chunks
     * come.
     *
     * @param path   the file; must not exist.
     * @param header the header, validated.
     * @return the chain, open.
     */
    public static BloomChain fromRedisBloomHeader(final Path path, final BloomChainHeader header)
    {
        return make(path, new RedisBloomScheme(header.options()), header.growth(), header.links(), null);
    }

    /** @param geometries the blocked layers a dump recorded, one per link, or null to size them from the links. */
    private static BloomChain make(final Path path, final LayerScheme scheme, final int growth,
        final List<BloomLink> links, final List<BlockedBloomModel> geometries)
    {
        final long seed = scheme instanceof DdfScheme ddf ? ddf.seed() : 0;
        final ChainFile file = ChainFile.create(path, scheme.family(), chain ->
        {
            chain.param(OPTIONS_AND_GROWTH, (scheme.options() & 0xFFFF_FFFFL) | (long)growth << 32);
            chain.param(SEED, seed);
            for (int i = 0; i < links.size(); i++)
            {
                if (geometries != null)
                {
                    ((DdfScheme)scheme).append(chain, links.get(i), geometries.get(i));
                }
                else
                {
                    scheme.append(chain, links.get(i));
                }
            }
        });
        final BloomChain chain = new BloomChain(file, scheme);
        chain.created();
        return chain;
    }

    /**
     * The first 8 bytes of the dump header of a ddf chain of bit-array layers (made before the blocked layer): ASCII
     * {@code DDFCHAIN}, which no RedisBloom header begins with.
     */
    public static final long DDF_DUMP_MAGIC = 0x4E49414843464444L;
    /** The first 8 bytes of the dump header of a ddf chain of blocked layers: ASCII {@code DDFBLOCK}. */
    public static final long DDF_BLOCKED_DUMP_MAGIC = 0x4B434F4C42464444L;
    /** Bytes a blocked chain's header gives each layer after RedisBloom's header: blocks (u64), k (u32), d (u32). */
    private static final int GEOMETRY_BYTES = 16;

    /**
     * @return the header chunk of this chain's dump: RedisBloom's for a RedisBloom chain; for a ddf chain its magic
     *         ({@link #DDF_BLOCKED_DUMP_MAGIC}, or {@link #DDF_DUMP_MAGIC} for bit-array layers), the seed, then
     *         RedisBloom's header of the same capacities and error rates (RedisBloom refuses it), then for blocked
     *         layers each layer's blocks, hash functions and blocks per item (FORMAT-scaling.md, "Dumps").
     */
    public byte[] dumpHeader()
    {
        final byte[] header = header().encode();
        if (!(scheme instanceof DdfScheme ddf))
        {
            return header;
        }
        final ChainLayer[] current = layers;
        final java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(16 + header.length +
            (ddf.blocked() ? GEOMETRY_BYTES * current.length : 0)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        out.putLong(ddf.blocked() ? DDF_BLOCKED_DUMP_MAGIC : DDF_DUMP_MAGIC).putLong(ddf.seed()).put(header);
        if (ddf.blocked())
        {
            for (final ChainLayer layer : current)
            {
                final BlockedBloomModel geometry = ((DdfBlockedLayer)layer).geometry();
                out.putLong(geometry.blocks()).putInt(geometry.hashFunctions()).putInt(geometry.blocksPerItem());
            }
        }
        return out.array();
    }

    /**
     * Makes a chain from a dump's header chunk, of either scheme ({@link #dumpHeader}), its bits zero until the data
     * chunks come.
     *
     * @param path  the file; must not exist.
     * @param chunk the header chunk.
     * @return the chain, open.
     * @throws io.ddf.engine.redisbloom.RedisBloomFormatException {@code ERR received bad data} for a malformed one.
     */
    public static BloomChain fromDumpHeader(final Path path, final byte[] chunk)
    {
        final java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(chunk).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        final long magic = chunk.length >= 16 + BloomChainHeader.CHAIN_BYTES ? in.getLong(0) : 0;
        if (magic == DDF_DUMP_MAGIC)
        {
            final BloomChainHeader header = BloomChainHeader.decode(Arrays.copyOfRange(chunk, 16, chunk.length));
            return make(path, new DdfScheme(header.options(), in.getLong(8), DdfScheme.BIT_LAYER_KIND),
                header.growth(), header.links(), null);
        }
        if (magic == DDF_BLOCKED_DUMP_MAGIC)
        {
            final int layers = in.getInt(16 + 8); // RedisBloom's header: size (u64), nfilters (u32), options, growth
            final long headerBytes = BloomChainHeader.CHAIN_BYTES + (long)BloomChainHeader.LINK_BYTES * layers;
            if (layers < 1 || layers > BloomChainHeader.MAX_LINKS ||
                chunk.length != 16 + headerBytes + (long)GEOMETRY_BYTES * layers)
            {
                throw new io.ddf.engine.redisbloom.RedisBloomFormatException("ERR received bad data",
                    "a ddf blocked chain's header of " + chunk.length + " bytes for " + layers + " layers");
            }
            final BloomChainHeader header = BloomChainHeader.decode(Arrays.copyOfRange(chunk, 16,
                16 + (int)headerBytes));
            final List<BlockedBloomModel> geometries = BlockedGeometries.read(in, 16 + (int)headerBytes, header,
                layers);
            return make(path, new DdfScheme(header.options(), in.getLong(8), DdfScheme.BLOCKED_LAYER_KIND),
                header.growth(), header.links(), geometries);
        }
        return fromRedisBloomHeader(path, BloomChainHeader.decode(chunk));
    }

    /**
     * @param path the file of a chain, of either scheme.
     * @return the chain, open.
     * @throws FilterFileException when it is not a scaling Bloom filter's file, or is damaged.
     */
    public static BloomChain open(final Path path)
    {
        final int family = ChainFile.familyOf(path);
        final ChainFile file = ChainFile.open(path, family == DDF_FAMILY ? DDF_FAMILY : REDISBLOOM_FAMILY);
        try
        {
            final int options = (int)file.param(OPTIONS_AND_GROWTH);
            final List<ChainFile.Segment> segments = file.segments();
            // a ddf chain grows with layers of the kind it was made with (the bit arrays of a file made before the
            // blocked layer stay bit arrays)
            return new BloomChain(file, family == DDF_FAMILY ? new DdfScheme(options, file.param(SEED),
                segments.isEmpty() ? DdfScheme.BLOCKED_LAYER_KIND : segments.get(0).kind()) :
                new RedisBloomScheme(options));
        }
        catch (final RuntimeException ex)
        {
            file.close();
            throw new FilterFileException(FilterFileException.Reason.CORRUPT, path, ex.getMessage(), ex);
        }
    }

    /** @return whether this chain is RedisBloom's layout, bit for bit (its dumps load into RedisBloom). */
    public boolean redisBloomLayout()
    {
        return scheme instanceof RedisBloomScheme;
    }

    /**
     * @param item   the item's bytes.
     * @param offset of the first.
     * @param length how many.
     * @return what the add did.
     */
    public AddResult add(final DirectBuffer item, final int offset, final int length)
    {
        final long a = scheme.first(item, offset, length);
        return addHashed(a, scheme.second(item, offset, length, a));
    }

    /**
     * @param item the item's bytes.
     * @return what the add did.
     */
    public AddResult add(final byte[] item)
    {
        return add(new UnsafeBuffer(item), 0, item.length);
    }

    /** An add of an item hashed already ({@link ChainItems}). */
    synchronized AddResult addHashed(final long a, final long b)
    {
        final ChainLayer[] current = layers;
        for (int i = current.length - 1; i >= 0; i--)
        {
            if (current[i].contains(a, b))
            {
                return AddResult.EXISTS;
            }
        }
        changed(); // a plain store under the monitor this add holds
        ChainLayer newest = current[current.length - 1];
        if (newest.size() >= newest.link().entries())
        {
            if ((scheme.options() & BloomLink.NO_SCALING) != 0)
            {
                return AddResult.FULL;
            }
            newest = grow(newest);
            if (newest == null)
            {
                return AddResult.NOT_GROWN;
            }
        }
        if (!newest.add(a, b))
        {
            return AddResult.EXISTS;
        }
        if (logged())
        {
            recordAdd(layers.length - 1, a, b, newest.size());
        }
        return AddResult.ADDED;
    }

    /** The record of an add (FORMAT-LOG.md, CHAIN_ADD): RedisBloom's layout needs the second value too. */
    private void recordAdd(final int layer, final long a, final long b, final long sizeAfter)
    {
        if (scheme instanceof RedisBloomScheme)
        {
            record2(KindOps.CHAIN_ADD, layer, a, sizeAfter, b);
        }
        else
        {
            record(KindOps.CHAIN_ADD, layer, a, sizeAfter);
        }
    }

    @Override
    void replay(final LogReader frame)
    {
        ChainReplay.replay(this, frame);
    }

    @Override
    io.ddf.engine.changelog.ReplayTarget replayTarget()
    {
        return ChainLanes.target(this);
    }

    private ChainLayer grow(final ChainLayer newest)
    {
        final long capacity;
        final double error = newest.link().error() * TIGHTENING;
        final BloomLink shape;
        try
        {
            capacity = Math.multiplyExact(newest.link().entries(), Integer.toUnsignedLong(growth));
            shape = scheme.shape(capacity, error);
        }
        catch (final ArithmeticException | IllegalArgumentException cannot)
        {
            return null;
        }
        if (layers.length >= ChainFile.MAX_LAYERS)
        {
            return null;
        }
        final ChainLayer layer = appendLayer(shape);
        // what the shape was made from: replay makes the same shape from it (FORMAT-LOG.md, CHAIN_GROW)
        record(KindOps.CHAIN_GROW, layers.length - 1, capacity, Double.doubleToLongBits(error));
        return layer;
    }

    private ChainLayer appendLayer(final BloomLink shape)
    {
        final ChainLayer layer = scheme.append(file, shape);
        final ChainLayer[] grown = Arrays.copyOf(layers, layers.length + 1);
        grown[grown.length - 1] = layer;
        layers = grown;
        return layer;
    }

    /** @return how the chain hashes and places items ({@link ChainItems}). */
    LayerScheme scheme()
    {
        return scheme;
    }

    /** @return layer {@code index} (replay). */
    ChainLayer layer(final int index)
    {
        return layers[index];
    }

    /** Appends the layer the scheme makes for a capacity and error rate (replay of a growth). */
    void appendLayer(final long capacity, final double error)
    {
        appendLayer(scheme.shape(capacity, error));
    }

    /**
     * @param item   the item's bytes.
     * @param offset of the first.
     * @param length how many.
     * @return whether the item may have been added.
     */
    public boolean contains(final DirectBuffer item, final int offset, final int length)
    {
        final long a = scheme.first(item, offset, length);
        final long b = scheme.second(item, offset, length, a);
        final ChainLayer[] current = layers;
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

    /** @return the layers RedisBloom would have made for this chain, with their item counts, oldest first. */
    public List<BloomLink> shapes()
    {
        return links(ChainLayer::link);
    }

    /**
     * @return the layers as BF.DEBUG and BF.INFO report them: their capacities, error rates and items, with the
     *         bytes, bits and hash functions they have (RedisBloom's own in its layout), oldest first.
     */
    public List<BloomLink> reportedShapes()
    {
        return links(ChainLayer::reported);
    }

    private List<BloomLink> links(final java.util.function.Function<ChainLayer, BloomLink> view)
    {
        final ChainLayer[] current = layers;
        final List<BloomLink> links = new ArrayList<>(current.length);
        for (final ChainLayer layer : current)
        {
            links.add(view.apply(layer));
        }
        return links;
    }

    /**
     * @return the chain as RedisBloom's dump header describes it, with the current counts (for a ddf chain, the
     *         chain RedisBloom would have made; only a RedisBloom chain's dumps load into RedisBloom).
     */
    public BloomChainHeader header()
    {
        return new BloomChainHeader(scheme.options(), growth, shapes());
    }

    /** @return BF.INFO's Capacity: the layers' capacities summed. */
    public long capacity()
    {
        long capacity = 0;
        for (final ChainLayer layer : layers)
        {
            capacity += layer.link().entries();
        }
        return capacity;
    }

    @Override
    public long items()
    {
        return size();
    }

    /** @return items added. */
    public long size()
    {
        long size = 0;
        for (final ChainLayer layer : layers)
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
        return (scheme.options() & BloomLink.NO_SCALING) != 0;
    }

    /** @return the expansion factor, as RedisBloom keeps it (32 bits, unsigned). */
    public long expansion()
    {
        return Integer.toUnsignedLong(growth);
    }

    /**
     * @return BF.INFO's Size as RedisBloom computes it (its structures and the layers' bytes) over the layers this
     *         chain has: RedisBloom's figure for its layout, the blocked layers' bytes for ddf's.
     */
    public long infoSize()
    {
        return new BloomChainHeader(scheme.options(), growth, reportedShapes()).infoSize();
    }

    /**
     * @return {@code BF.DEBUG}'s lines: the chain's size, then each layer's bytes, bits, hashes, hash width,
     *         capacity, size and error rate, in RedisBloom's words.
     */
    public List<String> debug()
    {
        final List<String> lines = new ArrayList<>();
        lines.add("size:" + size());
        for (final BloomLink link : reportedShapes())
        {
            lines.add("bytes:" + link.bytes() + " bits:" + Long.toUnsignedString(link.bits()) + " hashes:" +
                link.hashes() + " hashwidth:" + ((scheme.options() & BloomLink.FORCE64) != 0 ? 64 : 32) +
                " capacity:" + link.entries() + " size:" + link.size() + " ratio:" + CFormat.g(link.error()));
        }
        return lines;
    }

    /** @return each layer's data bytes, oldest first (what the dump's data chunks cover). */
    private long[] layerBytes()
    {
        final ChainLayer[] current = layers;
        final long[] bytes = new long[current.length];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = current[i].segment().dataBytes();
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
    public void load(final long iter, final DirectBuffer data, final int offset, final int length)
    {
        synchronized (this)
        {
            changed();
            final DumpChunks.Chunk chunk = DumpChunks.bloomTarget(layerBytes(), iter, length);
            new UnsafeBuffer(layers[chunk.layer()].segment().data() + chunk.offset(), length)
                .putBytes(0, data, offset, length);
        }
        if (logged())
        {
            checkpoint(); // a chunk is not logged: the file is made durable before the reply (FORMAT-LOG.md)
        }
    }
}
