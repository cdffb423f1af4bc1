package io.ddf.engine.scaling;

import io.ddf.engine.model.BlockedBloomModel;
import io.ddf.engine.redisbloom.BloomChainHeader;
import io.ddf.engine.redisbloom.BloomLink;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** The blocked layers' geometries a ddf blocked chain's dump header carries after RedisBloom's header. */
final class BlockedGeometries
{
    private BlockedGeometries()
    {
    }

    /**
     * @param in     the header chunk, little-endian.
     * @param at     where the geometries start.
     * @param header RedisBloom's header, decoded.
     * @param layers how many layers.
     * @return each layer's blocks, hash functions and blocks per item.
     * @throws io.ddf.engine.redisbloom.RedisBloomFormatException {@code ERR received bad data} for a bad one.
     */
    static List<BlockedBloomModel> read(final ByteBuffer in, final int at, final BloomChainHeader header,
        final int layers)
    {
        final List<BlockedBloomModel> geometries = new ArrayList<>(layers);
        in.position(at);
        for (int i = 0; i < layers; i++)
        {
            final long blocks = in.getLong();
            final int hashes = in.getInt();
            final int perItem = in.getInt();
            try
            {
                geometries.add(new BlockedBloomModel(blocks, hashes, perItem));
            }
            catch (final IllegalArgumentException e)
            {
                throw new io.ddf.engine.redisbloom.RedisBloomFormatException("ERR received bad data",
                    e.getMessage());
            }
            // a layer's geometry is the least that keeps its error rate: well under 4x RedisBloom's bits (a
            // corrupt header must not make a huge file)
            final BloomLink link = header.links().get(i);
            if (blocks > BlockedBloomModel.MAX_BLOCKS ||
                blocks * BlockedBloomModel.BLOCK_BITS > 4 * link.bits() + 4 * BlockedBloomModel.BLOCK_BITS)
            {
                throw new io.ddf.engine.redisbloom.RedisBloomFormatException("ERR received bad data",
                    "a layer of " + blocks + " blocks");
            }
        }
        return geometries;
    }
}
