package io.ddf.engine.scaling;

import io.ddf.engine.redisbloom.BloomChainHeader;
import io.ddf.engine.redisbloom.CuckooHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Golden files for RedisBloom's dumps and ddf's scaling file format, needing no RedisBloom: the dumps RedisBloom
 * 2.4.23 gave ({@link GoldenDumps}) load into ddf and answer every probe as RedisBloom did, and dump again to the
 * same chunks; the ddf files made from them ({@code NAME.ddfs}, format 1) are what a fresh load writes, byte for
 * byte, and open and answer as recorded.
 */
class ScalingGoldenFileTest
{
    @TempDir
    Path dir;

    private static String answers(final String name) throws IOException
    {
        return Files.readString(GoldenDumps.DIR.resolve(name + ".answers")).trim();
    }

    private static String ourAnswers(final java.util.function.Predicate<byte[]> contains)
    {
        final StringBuilder answers = new StringBuilder();
        for (final byte[] probe : GoldenDumps.probes())
        {
            answers.append(contains.test(probe) ? '1' : '0');
        }
        return answers.toString();
    }

    static BloomChain loadBloom(final Path file, final List<Object[]> chunks)
    {
        final BloomChain chain = BloomChain.fromRedisBloomHeader(file, BloomChainHeader.decode((byte[])chunks.get(0)[1]));
        for (int i = 1; i < chunks.size(); i++)
        {
            final byte[] data = (byte[])chunks.get(i)[1];
            chain.load((Long)chunks.get(i)[0], new UnsafeBuffer(data), 0, data.length);
        }
        return chain;
    }

    static RedisCuckoo loadCuckoo(final Path file, final List<Object[]> chunks)
    {
        final RedisCuckoo cuckoo = RedisCuckoo.fromHeader(file, CuckooHeader.decode((byte[])chunks.get(0)[1]));
        for (int i = 1; i < chunks.size(); i++)
        {
            final byte[] data = (byte[])chunks.get(i)[1];
            cuckoo.load((Long)chunks.get(i)[0], new UnsafeBuffer(data), 0, data.length);
        }
        return cuckoo;
    }

    private static void assertSameChunks(final List<Object[]> expected, final byte[] header,
        final java.util.function.LongFunction<DumpChunk> dump)
    {
        assertArrayEquals((byte[])expected.get(0)[1], header, "header chunk");
        for (int i = 1; i < expected.size(); i++)
        {
            final DumpChunk chunk = dump.apply((Long)expected.get(i - 1)[0]);
            assertEquals((Long)expected.get(i)[0], chunk.next(), "iterator of chunk " + i);
            assertArrayEquals((byte[])expected.get(i)[1], chunk.data(), "bytes of chunk " + i);
        }
        assertNull(dump.apply((Long)expected.get(expected.size() - 1)[0]), "no chunk after the last");
    }

    @ParameterizedTest
    @ValueSource(strings = {GoldenDumps.BLOOM, GoldenDumps.BLOOM_NONSCALING})
    void redisBloomDumpsOfBloomFiltersLoadAndAnswerAsRedisBloomDid(final String name) throws IOException
    {
        final List<Object[]> chunks = GoldenDumps.readChunks(GoldenDumps.DIR.resolve(name + ".chunks"));
        try (BloomChain chain = loadBloom(dir.resolve(name), chunks))
        {
            assertEquals(answers(name), ourAnswers(chain::contains));
            assertSameChunks(chunks, chain.header().encode(), chain::dump);
        }
        final Path golden = GoldenDumps.DIR.resolve(name + ".ddfs");
        writeGoldenIfAsked(dir.resolve(name), golden);
        assertArrayEquals(Files.readAllBytes(golden), unsealed(dir.resolve(name)),
            "a fresh load writes the golden file, byte for byte");
        final Path copy = Files.copy(golden, dir.resolve(name + "-golden"), StandardCopyOption.REPLACE_EXISTING);
        try (BloomChain reopened = BloomChain.open(copy))
        {
            assertEquals(answers(name), ourAnswers(reopened::contains));
            assertSameChunks(chunks, reopened.header().encode(), reopened::dump);
        }
    }

    @Test
    void redisBloomDumpOfACuckooFilterLoadsAndAnswersAsRedisBloomDid() throws IOException
    {
        final String name = GoldenDumps.CUCKOO;
        final List<Object[]> chunks = GoldenDumps.readChunks(GoldenDumps.DIR.resolve(name + ".chunks"));
        try (RedisCuckoo cuckoo = loadCuckoo(dir.resolve(name), chunks))
        {
            assertEquals(answers(name), ourAnswers(item -> cuckoo.contains(RedisCuckoo.hash(item))));
            assertSameChunks(chunks, cuckoo.header().encode(), cuckoo::dump);
        }
        final Path golden = GoldenDumps.DIR.resolve(name + ".ddfs");
        writeGoldenIfAsked(dir.resolve(name), golden);
        assertArrayEquals(Files.readAllBytes(golden), unsealed(dir.resolve(name)),
            "a fresh load writes the golden file, byte for byte");
        final Path copy = Files.copy(golden, dir.resolve(name + "-golden"), StandardCopyOption.REPLACE_EXISTING);
        try (RedisCuckoo reopened = RedisCuckoo.open(copy))
        {
            assertEquals(answers(name), ourAnswers(item -> reopened.contains(RedisCuckoo.hash(item))));
            assertSameChunks(chunks, reopened.header().encode(), reopened::dump);
        }
    }

    /**
     * ddf's own chain (family 3) as made before the blocked layer, of bit arrays of RedisBloom's size (layer kind 3):
     * 700 items into a chain of 100 at 1 %, seed 42, growing to three layers. Such files open, answer as recorded,
     * grow with more layers of their kind, and dump and load as they did.
     */
    @Test
    void ddfBitArrayChainFilesKeepTheirBytesAndAnswers() throws IOException
    {
        final String name = "ddf-bloom-1";
        final Path made = dir.resolve(name);
        try (BloomChain chain = BloomChain.create(made, 100, 0.01, false, 2, 42, DdfScheme.BIT_LAYER_KIND))
        {
            addGoldenItems(chain, name);
            assertEquals(694, chain.size());
        }
        final Path copy = checkGolden(made, name);
        try (BloomChain reopened = BloomChain.open(copy))
        {
            // the shapes RedisBloom makes for 100, 200, 400 items at 0.005, 0.0025, 0.00125 (RedisBloomInteropTest);
            // 6 of the 700 were false positives, not added
            assertEquals(List.of("size:694",
                "bytes:144 bits:1152 hashes:8 hashwidth:64 capacity:100 size:100 ratio:0.005",
                "bytes:312 bits:2496 hashes:9 hashwidth:64 capacity:200 size:200 ratio:0.0025",
                "bytes:696 bits:5568 hashes:10 hashwidth:64 capacity:400 size:394 ratio:0.00125"), reopened.debug());
            assertEquals(32 + 3 * 64 + 144 + 312 + 696, reopened.infoSize(), "RedisBloom's Size: its bit arrays");
            growsAndRoundTrips(reopened, DdfScheme.BIT_LAYER_KIND, BloomChain.DDF_DUMP_MAGIC);
        }
    }

    /**
     * ddf's own chain of blocked layers (layer kind 4), as BF.RESERVE makes it by default: the same 700 items into a
     * chain of 100 at 1 %, seed 42.
     */
    @Test
    void ddfBlockedChainFilesKeepTheirBytesAndAnswers() throws IOException
    {
        final String name = "ddf-bloom-blocked-1";
        final Path made = dir.resolve(name);
        try (BloomChain chain = BloomChain.create(made, 100, 0.01, false, 2, 42))
        {
            addGoldenItems(chain, name);
        }
        final Path copy = checkGolden(made, name);
        try (BloomChain reopened = BloomChain.open(copy))
        {
            final List<String> debug = reopened.debug();
            assertEquals(4, debug.size(), String.join("\n", debug));
            // RedisBloom's capacities and error rates, the blocked layers' bytes (whole 64-byte blocks)
            final long[] capacities = {100, 200, 400};
            final String[] ratios = {"0.005", "0.0025", "0.00125"};
            long bytes = 0;
            for (int i = 0; i < 3; i++)
            {
                final String line = debug.get(i + 1);
                assertTrue(line.contains(" capacity:" + capacities[i] + " ") && line.endsWith(" ratio:" + ratios[i]),
                    line);
                final long layerBytes = Long.parseLong(line.substring(6, line.indexOf(' ')));
                assertEquals(0, layerBytes % 64, line);
                bytes += layerBytes;
            }
            assertEquals(32 + 3 * 64 + bytes, reopened.infoSize());
            growsAndRoundTrips(reopened, DdfScheme.BLOCKED_LAYER_KIND, BloomChain.DDF_BLOCKED_DUMP_MAGIC);
        }
    }

    private static void addGoldenItems(final BloomChain chain, final String name) throws IOException
    {
        for (int i = 0; i < 700; i++)
        {
            chain.add(GoldenDumps.item("g", i));
        }
        assertEquals(3, chain.layerCount());
        if (Boolean.getBoolean("ddf.golden.write"))
        {
            Files.writeString(GoldenDumps.DIR.resolve(name + ".answers"), ourAnswers(chain::contains) + "\n");
        }
        assertEquals(answers(name), ourAnswers(chain::contains));
    }

    /** @return a copy of the golden file, after checking that {@code made} is it, byte for byte, and answers so. */
    private Path checkGolden(final Path made, final String name) throws IOException
    {
        final Path golden = GoldenDumps.DIR.resolve(name + ".ddfs");
        writeGoldenIfAsked(made, golden);
        assertArrayEquals(Files.readAllBytes(golden), unsealed(made), "the same adds write the golden file");
        final Path copy = Files.copy(golden, dir.resolve(name + "-golden"), StandardCopyOption.REPLACE_EXISTING);
        try (BloomChain reopened = BloomChain.open(copy))
        {
            assertEquals(answers(name), ourAnswers(reopened::contains));
        }
        return copy;
    }

    /**
     * The chain dumps with its magic and loads into a chain that answers every probe alike, then grows (in both) by
     * layers of its own kind.
     */
    private void growsAndRoundTrips(final BloomChain chain, final int kind, final long magic)
    {
        final byte[] header = chain.dumpHeader();
        assertEquals(magic, java.nio.ByteBuffer.wrap(header).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(0));
        try (BloomChain loaded = BloomChain.fromDumpHeader(dir.resolve("loaded-" + kind), header))
        {
            for (long iter = 1; ; )
            {
                final DumpChunk chunk = chain.dump(iter);
                if (chunk == null)
                {
                    break;
                }
                loaded.load(chunk.next(), new UnsafeBuffer(chunk.data()), 0, chunk.data().length);
                iter = chunk.next();
            }
            assertEquals(ourAnswers(chain::contains), ourAnswers(loaded::contains));
            assertEquals(chain.debug(), loaded.debug());
            for (int i = 0; i < 2000; i++)
            {
                final byte[] item = GoldenDumps.item("more", i);
                assertEquals(chain.add(item), loaded.add(item), "add " + i);
            }
            assertEquals(ourAnswers(chain::contains), ourAnswers(loaded::contains));
        }
        assertEquals(5, chain.layerCount());
        for (final ChainFile.Segment segment : chain.file.segments())
        {
            assertEquals(kind, segment.kind(), "layer " + segment.index());
        }
    }

    /**
     * @return the file's bytes without its seal (the closed-cleanly word and the table checksum, bytes 240-255, added
     *         to version 1 by issue 31 and written at a clean close): the golden files are of version 1 before it,
     *         which this build must still read; the seal a fresh close wrote is checked here, against its file.
     */
    private static byte[] unsealed(final Path made) throws IOException
    {
        assertEquals("ok", ChainVerify.verify(made).get("table checksum"), made + " sealed with its checksum");
        final byte[] bytes = Files.readAllBytes(made);
        Arrays.fill(bytes, ChainFile.CLEAN_OFFSET, ChainFile.CHECKSUM_OFFSET + Long.BYTES, (byte)0);
        return bytes;
    }

    private static void writeGoldenIfAsked(final Path made, final Path golden) throws IOException
    {
        if (Boolean.getBoolean("ddf.golden.write"))
        {
            Files.copy(made, golden, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
