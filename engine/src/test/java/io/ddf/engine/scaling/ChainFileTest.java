package io.ddf.engine.scaling;

import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.testing.Smaps;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The growing file under the scaling filters: a reopened chain answers as before; what a growth killed before its
 * publication leaves is cut off; a broken segment, a foreign file, a file shorter than its header says, a second
 * writer are refused, each named; a new chain's first layer is faulted in at creation; and a process killed at any moment while its chain grows (8 rounds, each killed 0 to 0.4 s after its first add, from 50 items doubling) leaves a file that opens
 * and holds every item whose add had returned.
 */
class ChainFileTest
{
    @TempDir
    Path dir;

    private static byte[] item(final long n)
    {
        return ("i" + n).getBytes(StandardCharsets.UTF_8);
    }

    private Path chainOf(final String name, final int items)
    {
        final Path path = dir.resolve(name);
        try (BloomChain chain = BloomChain.redisBloom(path, 50, 0.01, false, 2))
        {
            for (int i = 0; i < items; i++)
            {
                chain.add(item(i));
            }
            assertEquals(4, chain.layerCount(), "50 + 100 + 200 + 400 items: four layers");
        }
        return path;
    }

    /**
     * A new chain's first layer is faulted in writable at creation (issue 31 item 10), as a fixed file's table is: its
     * first random adds otherwise faulted its pages in one by one on the hot path. Failed before (the layer's mapping
     * had 0 kB resident until adds reached it).
     */
    @Test
    void aNewChainsFirstLayerIsFaultedInAtCreation() throws IOException
    {
        assumeTrue(Smaps.available(), "reads /proc/self/smaps");
        final Path path = dir.resolve("fresh.ddfs");
        try (BloomChain chain = BloomChain.create(path, 1_000_000, 0.01, false, 2, 7))
        {
            final List<Smaps.Mapping> mappings = Smaps.of(path);
            final Smaps.Mapping layer = mappings.stream().max(java.util.Comparator.comparingLong(Smaps.Mapping::sizeKb))
                .orElseThrow();
            assertTrue(layer.sizeKb() > 1024, "the layer of 10^6 items: " + mappings);
            assertEquals(layer.sizeKb(), layer.rssKb(), "every page of the layer faulted in: " + layer);
            assertEquals(AddResult.ADDED, chain.add(item(1)));
        }
    }

    @Test
    void aReopenedChainAnswersAsBefore()
    {
        final Path path = chainOf("c", 600);
        try (BloomChain chain = BloomChain.open(path))
        {
            assertEquals(4, chain.layerCount());
            for (int i = 0; i < 600; i++)
            {
                assertTrue(chain.contains(item(i)), "item " + i);
            }
            assertEquals(AddResult.EXISTS, chain.add(item(7)));
            assertEquals(750, chain.capacity());
        }
    }

    @Test
    void whatAnInterruptedGrowthLeftIsCutOff() throws IOException
    {
        final Path path = chainOf("c", 600);
        final long length = Files.size(path);
        try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw"))
        {
            crashed(raf);
            raf.setLength(length + 3 * 4096);
            raf.seek(length);
            raf.write("DDFLAYER".getBytes(StandardCharsets.US_ASCII)); // a layer header written, never published
        }
        try (BloomChain chain = BloomChain.open(path))
        {
            assertEquals(4, chain.layerCount());
            assertTrue(chain.contains(item(599)));
        }
        assertEquals(length, Files.size(path));
    }

    /**
     * A power cut that kept the header page publishing the newest layer but not the layer (the growth fell between
     * two syncs): the chain opens with the layers before it, which hold what was synced, instead of being refused.
     */
    @Test
    void aPublishedLayerThePowerCutLostIsRolledBack() throws IOException
    {
        final Path three = dir.resolve("three");
        try (BloomChain chain = BloomChain.redisBloom(three, 50, 0.01, false, 2))
        {
            for (int i = 0; i < 350; i++)
            {
                chain.add(item(i));
            }
            assertEquals(3, chain.layerCount(), "50 + 100 + 200 items: three layers, the fourth not yet grown");
        }
        final Path path = chainOf("c", 600);
        try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw"))
        {
            crashed(raf);
            raf.setLength(Files.size(three)); // the fourth layer's pages never reached the device
        }
        try (BloomChain chain = BloomChain.open(path))
        {
            assertEquals(3, chain.layerCount());
            for (int i = 0; i < 350; i++)
            {
                assertTrue(chain.contains(item(i)), "item " + i + " of the first three layers");
            }
            chain.add(item(100_000));
            assertTrue(chain.contains(item(100_000)));
        }
    }

    /** A crash leaves no seal: the closed-cleanly word is set only by a clean close (after which nothing changes). */
    private static void crashed(final RandomAccessFile raf) throws IOException
    {
        raf.seek(ChainFile.CLEAN_OFFSET);
        raf.writeInt(0);
    }

    @Test
    void brokenForeignShortAndLockedFilesAreRefused() throws IOException
    {
        final Path path = chainOf("c", 600);
        final byte[] bytes = Files.readAllBytes(path);
        final Path broken = dir.resolve("broken");
        final byte[] flipped = bytes.clone();
        flipped[4096 + 4096] ^= 1; // the second layer's magic (the first, 50 items, takes one page)
        Files.write(broken, flipped);
        final FilterFileException corrupt = assertThrows(FilterFileException.class, () -> BloomChain.open(broken));
        assertEquals(FilterFileException.Reason.CORRUPT, corrupt.reason());

        final Path foreign = dir.resolve("foreign");
        Files.write(foreign, new byte[8192]);
        assertEquals(FilterFileException.Reason.FOREIGN,
            assertThrows(FilterFileException.class, () -> BloomChain.open(foreign)).reason());
        assertEquals(FilterFileException.Reason.FOREIGN,
            assertThrows(FilterFileException.class, () -> RedisCuckoo.open(path)).reason(), "another family");

        // short by more than the newest layer: a published layer before the newest is missing (only the newest one
        // can be a growth a power cut lost, aPublishedLayerThePowerCutLostIsRolledBack)
        final Path shorter = dir.resolve("short");
        Files.write(shorter, java.util.Arrays.copyOf(bytes, 3 * 4096));
        assertEquals(FilterFileException.Reason.CORRUPT,
            assertThrows(FilterFileException.class, () -> BloomChain.open(shorter)).reason());

        try (BloomChain open = BloomChain.open(path))
        {
            assertTrue(open.contains(item(1)));
            assertEquals(FilterFileException.Reason.LOCKED,
                assertThrows(FilterFileException.class, () -> BloomChain.open(path)).reason());
        }
        assertEquals(FilterFileException.Reason.EXISTS, assertThrows(FilterFileException.class,
            () -> BloomChain.redisBloom(path, 10, 0.01, false, 2)).reason());
    }

    @Test
    void killedWhileGrowingTheFileOpensAndHoldsEveryAcknowledgedItem() throws Exception
    {
        final SplittableRandom random = TestSeed.splittable();
        final Path path = dir.resolve("killed");
        long acknowledged = -1;
        int layers = 0;
        for (int round = 0; round < 8; round++)
        {
            final Path acks = dir.resolve("acks-" + round);
            final Process child = start(path, acknowledged + 1, acks);
            final long started = System.nanoTime();
            while ((!Files.exists(acks) || Files.size(acks) == 0) && child.isAlive() &&
                System.nanoTime() - started < TimeUnit.SECONDS.toNanos(60))
            {
                Thread.sleep(5); // the JVM starts: kill it only once it adds
            }
            Thread.sleep(random.nextInt(400));
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // SIGKILL
            if (Files.exists(acks))
            {
                for (final String line : Files.readAllLines(acks, StandardCharsets.US_ASCII))
                {
                    if (!line.isBlank())
                    {
                        acknowledged = Math.max(acknowledged, Long.parseLong(line.trim()));
                    }
                }
            }
            assertTrue(acknowledged >= 0, "round " + round + ": the child acknowledged nothing " +
                TestSeed.replayHint());
            try (BloomChain chain = BloomChain.open(path))
            {
                layers = chain.layerCount();
                for (long n = 0; n <= acknowledged; n++)
                {
                    assertTrue(chain.contains(item(n)), "round " + round + ": item " + n + " of " + acknowledged +
                        " acknowledged is missing " + TestSeed.replayHint());
                }
            }
        }
        assertTrue(layers >= 8, "the rounds grew the chain to " + layers + " layers only (" + (acknowledged + 1) +
            " items): growth was not under test");
    }

    private static Process start(final Path path, final long from, final Path acks) throws IOException
    {
        return io.ddf.persistence.testing.ChildJvm.start(GrowthProbe.class, path.toString(), Long.toString(from),
            acks.toString());
    }
}
