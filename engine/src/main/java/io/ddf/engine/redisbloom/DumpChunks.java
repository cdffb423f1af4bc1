package io.ddf.engine.redisbloom;

/**
 * Where each data chunk of RedisBloom's dumps comes from and goes to. A dump is a header chunk, then the layers'
 * (sub-filters') bytes in order, at most {@link #MAX_CHUNK} bytes a chunk, each chunk named by an iterator that
 * {@code SCANDUMP} hands back and {@code LOADCHUNK} takes with it. The arithmetic is RedisBloom 2.4's, quirks kept:
 *
 * <ul>
 *   <li>Bloom: the iterator of a chunk is 1 plus the offset of the byte after it, counted over all layers; a chunk
 *       never crosses a layer's end; the iterator after the last chunk is 0.</li>
 *   <li>Cuckoo: the position after a chunk is 1 plus the offset of the byte after it; a sub-filter of at most
 *       {@link #MAX_CHUNK} bytes is always given whole, from its start, whatever position asked for it.</li>
 * </ul>
 */
public final class DumpChunks
{
    /** Largest data chunk RedisBloom makes: 16 MiB. */
    public static final int MAX_CHUNK = 16 * 1024 * 1024;

    private DumpChunks()
    {
    }

    /**
     * A piece of one layer.
     *
     * @param layer  the layer's index.
     * @param offset the first byte within the layer.
     * @param length bytes.
     * @param next   the iterator (position) to hand back with this chunk.
     */
    public record Chunk(int layer, long offset, long length, long next)
    {
    }

    /**
     * @param layerBytes each layer's bytes, oldest first.
     * @param iter       the iterator a {@code BF.SCANDUMP} asked for (at least 1; 0 is the header).
     * @param max        the largest chunk.
     * @return the chunk to give, or null when the dump is complete (iterator 0, empty data).
     */
    public static Chunk bloomChunk(final long[] layerBytes, final long iter, final long max)
    {
        if (iter < 1)
        {
            return null;
        }
        long offset = iter - 1;
        for (int layer = 0; layer < layerBytes.length; layer++)
        {
            if (offset < layerBytes[layer])
            {
                final long length = Math.min(max, layerBytes[layer] - offset);
                return new Chunk(layer, offset, length, iter + length);
            }
            offset -= layerBytes[layer];
        }
        return null;
    }

    /**
     * @param layerBytes each layer's bytes, oldest first.
     * @param iter       the iterator a {@code BF.LOADCHUNK} came with.
     * @param length     the chunk's bytes.
     * @return where the chunk goes.
     * @throws RedisBloomFormatException with RedisBloom's reply when it goes nowhere.
     */
    public static Chunk bloomTarget(final long[] layerBytes, final long iter, final long length)
    {
        if (iter <= 0 || iter < length)
        {
            throw new RedisBloomFormatException("ERR received bad data", "iterator " + iter + " for a chunk of " +
                length + " bytes");
        }
        final long start = iter - length;
        long offset = start - 1;
        for (int layer = 0; start >= 1 && layer < layerBytes.length; layer++)
        {
            if (offset < layerBytes[layer])
            {
                if (length > layerBytes[layer] - offset)
                {
                    throw new RedisBloomFormatException("ERR invalid chunk - Too big for current filter", length +
                        " bytes at offset " + offset + " of a layer of " + layerBytes[layer]);
                }
                return new Chunk(layer, offset, length, iter);
            }
            offset -= layerBytes[layer];
        }
        throw new RedisBloomFormatException("ERR invalid offset - no link found", "iterator " + iter + " for a chunk" +
            " of " + length + " bytes");
    }

    /**
     * @param filterBytes each sub-filter's bytes, oldest first.
     * @param pos         the position a {@code CF.SCANDUMP} asked for (at least 1; 0 is the header).
     * @param max         the largest chunk.
     * @return the chunk to give, or null when the dump is complete (position 0, nil).
     */
    public static Chunk cuckooChunk(final long[] filterBytes, final long pos, final long max)
    {
        if (pos < 1)
        {
            return null;
        }
        long offset = pos - 1;
        for (int filter = 0; filter < filterBytes.length; filter++)
        {
            final long size = filterBytes[filter];
            if (offset < size)
            {
                if (size <= max)
                {
                    return new Chunk(filter, 0, size, pos + size);
                }
                final long length = Math.min(max, size - offset);
                return new Chunk(filter, offset, length, pos + length);
            }
            offset -= size;
        }
        return null;
    }

    /**
     * @param filterBytes each sub-filter's bytes, oldest first.
     * @param pos         the position a {@code CF.LOADCHUNK} came with.
     * @param length      the chunk's bytes.
     * @return where the chunk goes.
     * @throws RedisBloomFormatException {@code Couldn't load chunk!} when it goes nowhere whole (RedisBloom 2.4
     *                                   would copy it past the sub-filter's end).
     */
    public static Chunk cuckooTarget(final long[] filterBytes, final long pos, final long length)
    {
        long offset = pos - length - 1;
        if (length <= 0 || offset < 0)
        {
            throw new RedisBloomFormatException("Couldn't load chunk!", "position " + pos + " for a chunk of " +
                length + " bytes");
        }
        for (int filter = 0; filter < filterBytes.length; filter++)
        {
            if (offset < filterBytes[filter])
            {
                if (length > filterBytes[filter] - offset)
                {
                    break;
                }
                return new Chunk(filter, offset, length, pos);
            }
            offset -= filterBytes[filter];
        }
        throw new RedisBloomFormatException("Couldn't load chunk!", "position " + pos + " for a chunk of " + length +
            " bytes goes past the filter's sub-filters");
    }
}
