package io.ddf.engine.redisbloom;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The first chunk of RedisBloom's {@code BF.SCANDUMP} (iterator 1): the scaling chain's item count, option bits and
 * expansion, then each layer's shape, packed little-endian without padding: a 20-byte chain part (size u64, layers
 * u32, options u32, growth u32) and 53 bytes per layer (bytes u64, bits u64, size u64, error f64, bpe f64, hashes
 * u32, entries u64, n2 u8).
 *
 * @param options the chain's option bits ({@link BloomLink#FORCE64} and the others).
 * @param growth  the expansion factor of a new layer's capacity.
 * @param links   the layers, oldest first.
 */
public record BloomChainHeader(int options, int growth, List<BloomLink> links)
{
    /** Bytes of the chain part. */
    public static final int CHAIN_BYTES = 20;
    /** Bytes of each layer's part. */
    public static final int LINK_BYTES = 53;
    /** What RedisBloom 2.4's {@code BF.INFO} counts for the chain's own structure, besides the bits. */
    public static final int INFO_CHAIN_OVERHEAD = 32;
    /** What it counts per layer's structure. */
    public static final int INFO_LINK_OVERHEAD = 64;
    /** Most layers a header may name: RedisBloom refuses to load a chain of 1000 or more from its RDB files. */
    public static final int MAX_LINKS = 999;

    /** Copies the layer list. */
    public BloomChainHeader
    {
        links = List.copyOf(links);
    }

    /** @return items in the chain: the sum of its layers' sizes. */
    public long size()
    {
        long size = 0;
        for (final BloomLink link : links)
        {
            size += link.size();
        }
        return size;
    }

    /** @return the header's bytes, as RedisBloom writes them. */
    public byte[] encode()
    {
        final ByteBuffer out = ByteBuffer.allocate(CHAIN_BYTES + LINK_BYTES * links.size()).order(ByteOrder.LITTLE_ENDIAN);
        out.putLong(size()).putInt(links.size()).putInt(options).putInt(growth);
        for (final BloomLink link : links)
        {
            out.putLong(link.bytes()).putLong(link.bits()).putLong(link.size()).putDouble(link.error())
                .putDouble(link.bpe()).putInt(link.hashes()).putLong(link.entries()).put((byte)link.n2());
        }
        return out.array();
    }

    /**
     * Reads a header chunk, checking what RedisBloom checks (layer count, length, each layer's consistency, known
     * options, sizes that add up) and nothing less.
     *
     * @param chunk the chunk's bytes.
     * @return the header.
     * @throws RedisBloomFormatException {@code ERR received bad data} with what is wrong.
     */
    public static BloomChainHeader decode(final byte[] chunk)
    {
        if (chunk.length < CHAIN_BYTES)
        {
            throw bad("a header chunk of " + chunk.length + " bytes is shorter than the chain part (" + CHAIN_BYTES +
                ")");
        }
        final ByteBuffer in = ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN);
        final long size = in.getLong();
        final long count = in.getInt() & 0xFFFF_FFFFL;
        final int options = in.getInt();
        final int growth = in.getInt();
        if (count == 0 || count > MAX_LINKS)
        {
            throw bad("a chain of " + count + " layers");
        }
        if (chunk.length != CHAIN_BYTES + LINK_BYTES * count)
        {
            throw bad("a header chunk of " + chunk.length + " bytes for " + count + " layers (" +
                (CHAIN_BYTES + LINK_BYTES * count) + " expected)");
        }
        if ((options & ~BloomLink.KNOWN_OPTIONS) != 0)
        {
            throw bad("unknown option bits " + Integer.toHexString(options));
        }
        final List<BloomLink> links = new ArrayList<>((int)count);
        for (int i = 0; i < count; i++)
        {
            final long bytes = in.getLong();
            final long bits = in.getLong();
            final long linkSize = in.getLong();
            final double error = in.getDouble();
            final double bpe = in.getDouble();
            final int hashes = in.getInt();
            final long entries = in.getLong();
            final int n2 = in.get() & 0xFF;
            final BloomLink link = new BloomLink(bytes, bits, linkSize, error, bpe, hashes, entries, n2);
            link.validate();
            links.add(link);
        }
        final BloomChainHeader header = new BloomChainHeader(options, growth, links);
        if (header.size() != size)
        {
            throw bad("the chain counts " + size + " items, its layers " + header.size());
        }
        return header;
    }

    /** @return the chain's bits in bytes, all layers. */
    public long dataBytes()
    {
        long bytes = 0;
        for (final BloomLink link : links)
        {
            bytes += link.bytes();
        }
        return bytes;
    }

    /** @return what RedisBloom 2.4's {@code BF.INFO} answers as Size: its structures and every layer's bits. */
    public long infoSize()
    {
        return INFO_CHAIN_OVERHEAD + (long)INFO_LINK_OVERHEAD * links.size() + dataBytes();
    }

    private static RedisBloomFormatException bad(final String detail)
    {
        return new RedisBloomFormatException("ERR received bad data", detail);
    }
}
