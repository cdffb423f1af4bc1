package io.ddf.engine.redisbloom;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * RedisBloom's layer sizing, header chunks and chunk arithmetic without RedisBloom: the figures RedisBloom 2.4.23
 * answered here (recorded in the assertions' comments), and every malformed header refused with RedisBloom's reply.
 */
class RedisBloomFormatTest
{
    private static final int DEFAULTS = BloomLink.NOROUND | BloomLink.FORCE64;

    @Test
    void layersAreSizedAsRedisBloomSizesThem()
    {
        // BF.RESERVE b 0.01 10000000 -> BF.INFO Size 13784792, BF.DEBUG bytes:13784696 bits:110277568 hashes:8
        final BloomLink tenMillion = BloomLink.create(10_000_000, 0.01 * 0.5, DEFAULTS);
        assertEquals(13_784_696, tenMillion.bytes());
        assertEquals(110_277_568, tenMillion.bits());
        assertEquals(8, tenMillion.hashes());
        assertEquals(13_784_792, new BloomChainHeader(DEFAULTS, 2, List.of(tenMillion)).infoSize());
        // BF.RESERVE b 0.01 1000000000 NONSCALING -> Size 1198132400
        final BloomLink billion = BloomLink.create(1_000_000_000, 0.01, DEFAULTS | BloomLink.NO_SCALING);
        assertEquals(1_198_132_400, new BloomChainHeader(DEFAULTS | BloomLink.NO_SCALING, 2, List.of(billion))
            .infoSize());
        // BF.ADD on a missing key (100 items at 0.01) -> bytes:144 bits:1152 hashes:8, Size 240
        final BloomLink small = BloomLink.create(100, 0.005, DEFAULTS);
        assertEquals(144, small.bytes());
        assertEquals(1152, small.bits());
        assertEquals(240, new BloomChainHeader(DEFAULTS, 2, List.of(small)).infoSize());
        assertThrows(IllegalArgumentException.class, () -> BloomLink.create(0, 0.01, DEFAULTS));
        assertThrows(IllegalArgumentException.class, () -> BloomLink.create(10, 1.0, DEFAULTS));
    }

    @Test
    void roundedLayersTakeAPowerOfTwoAndTheCapacityItsExtraBitsHold()
    {
        final BloomLink rounded = BloomLink.create(1000, 0.01, BloomLink.FORCE64);
        assertEquals(1L << 14, rounded.bits()); // 9585 bits rounded up
        assertEquals(14, rounded.n2());
        assertEquals(1000 + (long)((16384 - 1000 * rounded.bpe()) / rounded.bpe()), rounded.entries());
        rounded.validate();
    }

    private static BloomChainHeader chain()
    {
        return new BloomChainHeader(DEFAULTS, 2, List.of(BloomLink.create(100, 0.005, DEFAULTS).withSize(7),
            BloomLink.create(200, 0.0025, DEFAULTS).withSize(3)));
    }

    @Test
    void bloomHeadersRoundTrip()
    {
        final BloomChainHeader header = chain();
        final byte[] bytes = header.encode();
        assertEquals(BloomChainHeader.CHAIN_BYTES + 2 * BloomChainHeader.LINK_BYTES, bytes.length);
        assertEquals(header, BloomChainHeader.decode(bytes));
        assertEquals(10, ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(0));
    }

    private static void assertBadData(final byte[] bytes)
    {
        final RedisBloomFormatException refused = assertThrows(RedisBloomFormatException.class,
            () -> BloomChainHeader.decode(bytes));
        assertEquals("ERR received bad data", refused.reply());
    }

    @Test
    void malformedBloomHeadersAreRefusedAsRedisBloomRefusesThem()
    {
        final byte[] good = chain().encode();
        assertBadData(new byte[19]);
        assertBadData(java.util.Arrays.copyOf(good, good.length - 1)); // truncated
        assertBadData(java.util.Arrays.copyOf(good, good.length + 1));
        final ByteBuffer noLayers = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
        noLayers.putInt(8, 0);
        assertBadData(noLayers.array());
        final ByteBuffer unknownOption = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
        unknownOption.putInt(12, DEFAULTS | 16);
        assertBadData(unknownOption.array());
        final ByteBuffer wrongTotal = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
        wrongTotal.putLong(0, 11);
        assertBadData(wrongTotal.array());
        final int link = BloomChainHeader.CHAIN_BYTES;
        final ByteBuffer bitsNotBytes = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
        bitsNotBytes.putLong(link + 8, 1153);
        assertBadData(bitsNotBytes.array());
        final ByteBuffer wrongHashes = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
        wrongHashes.putInt(link + 40, 9);
        assertBadData(wrongHashes.array());
        final ByteBuffer zeroError = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
        zeroError.putDouble(link + 24, 0.0);
        assertBadData(zeroError.array());
        final ByteBuffer bigN2 = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
        bigN2.put(link + 52, (byte)64);
        assertBadData(bigN2.array());
    }

    @Test
    void cuckooHeadersRoundTripAndMalformedOnesAreRefused()
    {
        final CuckooHeader header = new CuckooHeader(100, 512, 3, 2, 2, 20, 2);
        assertEquals(header, CuckooHeader.decode(header.encode()));
        assertEquals(1024, header.bucketsOf(1));
        assertEquals(CuckooHeader.BYTES, header.encode().length);
        for (final CuckooHeader bad : List.of(new CuckooHeader(1, 500, 0, 1, 2, 20, 1),
            new CuckooHeader(1, 512, 0, 0, 2, 20, 1), new CuckooHeader(1, 512, 0, 33, 2, 20, 2),
            new CuckooHeader(1, 512, 0, 1, 0, 20, 1), new CuckooHeader(1, 512, 0, 1, 256, 20, 1),
            new CuckooHeader(1, 512, 0, 1, 2, 0, 1), new CuckooHeader(2000, 512, 0, 1, 2, 20, 1),
            new CuckooHeader(1, 512, 0, 2, 2, 20, 0), new CuckooHeader(1, 512, 0, 2, 2, 20, 3),
            new CuckooHeader(1, 1L << 40, 0, 1, 2, 20, 1)))
        {
            final RedisBloomFormatException refused = assertThrows(RedisBloomFormatException.class,
                () -> CuckooHeader.decode(bad.encode()), bad.toString());
            assertEquals("Invalid header", refused.reply());
        }
        assertEquals("Invalid header", assertThrows(RedisBloomFormatException.class,
            () -> CuckooHeader.decode(new byte[37])).reply());
    }

    @Test
    void bloomChunksFollowRedisBloomsIterators()
    {
        final long[] layers = {144, 296};
        // BF.SCANDUMP k 1 -> 145 and the first layer; 145 -> 441 and the second; 441 -> 0
        assertEquals(new DumpChunks.Chunk(0, 0, 144, 145), DumpChunks.bloomChunk(layers, 1, DumpChunks.MAX_CHUNK));
        assertEquals(new DumpChunks.Chunk(1, 0, 296, 441), DumpChunks.bloomChunk(layers, 145, DumpChunks.MAX_CHUNK));
        assertNull(DumpChunks.bloomChunk(layers, 441, DumpChunks.MAX_CHUNK));
        // BF.SCANDUMP k 7 -> 145: the rest of the first layer from offset 6
        assertEquals(new DumpChunks.Chunk(0, 6, 138, 145), DumpChunks.bloomChunk(layers, 7, DumpChunks.MAX_CHUNK));
        assertEquals(new DumpChunks.Chunk(1, 100, 100, 345), DumpChunks.bloomChunk(layers, 245, 100));
        assertEquals(new DumpChunks.Chunk(1, 0, 296, 441), DumpChunks.bloomTarget(layers, 441, 296));
        assertEquals("ERR received bad data",
            assertThrows(RedisBloomFormatException.class, () -> DumpChunks.bloomTarget(layers, 100, 144)).reply());
        assertEquals("ERR invalid chunk - Too big for current filter",
            assertThrows(RedisBloomFormatException.class, () -> DumpChunks.bloomTarget(layers, 300, 200)).reply());
        assertEquals("ERR invalid offset - no link found",
            assertThrows(RedisBloomFormatException.class, () -> DumpChunks.bloomTarget(layers, 1000, 10)).reply());
    }

    @Test
    void cuckooChunksFollowRedisBloomsPositions()
    {
        final long[] filters = {1024, 2048};
        // CF.SCANDUMP c 1 -> 1025 (a sub-filter under 16 MiB comes whole); CF.SCANDUMP c 5 -> 1029, whole too
        assertEquals(new DumpChunks.Chunk(0, 0, 1024, 1025), DumpChunks.cuckooChunk(filters, 1, DumpChunks.MAX_CHUNK));
        assertEquals(new DumpChunks.Chunk(0, 0, 1024, 1029), DumpChunks.cuckooChunk(filters, 5, DumpChunks.MAX_CHUNK));
        assertEquals(new DumpChunks.Chunk(1, 0, 2048, 3073),
            DumpChunks.cuckooChunk(filters, 1025, DumpChunks.MAX_CHUNK));
        assertNull(DumpChunks.cuckooChunk(filters, 3073, DumpChunks.MAX_CHUNK));
        assertEquals(new DumpChunks.Chunk(1, 1000, 1000, 3025), DumpChunks.cuckooChunk(filters, 2025, 1000));
        assertEquals(new DumpChunks.Chunk(1, 0, 2048, 3073), DumpChunks.cuckooTarget(filters, 3073, 2048));
        for (final long[] bad : new long[][] {{3074, 2048}, {1025, 0}, {10, 100}, {5000, 10}})
        {
            assertEquals("Couldn't load chunk!", assertThrows(RedisBloomFormatException.class,
                () -> DumpChunks.cuckooTarget(filters, bad[0], bad[1])).reply());
        }
        assertArrayEquals(new long[] {1024, 2048}, filters);
    }
}
