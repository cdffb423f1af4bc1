package io.ddf.engine;

import io.ddf.engine.scaling.BloomChain;
import io.ddf.persistence.log.BootId;
import io.ddf.persistence.FilterFileDescriptor;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.LogBinding;
import io.ddf.persistence.log.LogOptions;
import io.ddf.persistence.log.Recovery;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The change log's replay in lanes (engine changelog's BatchReplay): after a power cut, a replay by 1, 2 or 3 lanes
 * leaves exactly the bytes the record-by-record replay ({@code ddf.replay.threads} 0: every record through the
 * target's apply, in log order) leaves, for the default scaling chain (its growth among the adds), QHT (rows whose
 * verdicts depend on their order, counters in the header) and fifo-bloom (generations turning); and so does the
 * sorted replay (SortedReplay), the default. No timing: the lanes meet at barriers, the result does not depend on how
 * the threads are scheduled.
 */
final class ParallelReplayTest extends EngineTestBase
{
    private static final String THREADS = "ddf.replay.threads";
    private static final String SORTED = "ddf.replay.sorted";
    private static final String SORT_BITS = "ddf.replay.sortBits";
    /** The sorted replay's settings tried: records per chunk (a growth's barrier within most), bits sorted on. */
    private static final int[][] SORTED_SETTINGS = {{1 << 20, 32}, {1000, 32}, {5000, 4}, {1, 32}};
    private static final int[] LANES = {1, 2, 3};
    /** The checkpoint time's offset in the log binding (FORMAT-LOG.md). */
    private static final int CHECKPOINT_MILLIS = 24;
    /** A log of small segments, so that the replay crosses segments. */
    private static final LogOptions OPTIONS = LogOptions.DEFAULT.withSegmentBytes(1 << 20);

    @TempDir
    Path dir;

    @AfterEach
    void clearProperties()
    {
        System.clearProperty(THREADS);
        System.clearProperty(SORTED);
        System.clearProperty(SORT_BITS);
        System.clearProperty(BootId.PROPERTY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"chain", "qht", "fifo-bloom"})
    void everyLaneCountLeavesTheRecordByRecordReplaysBytes(final String kind) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() ^ kind.hashCode());
        final Path written = dir.resolve("written");
        Files.createDirectories(written);
        final long records = write(kind, written, random);
        System.setProperty(SORTED, "0");
        final byte[] expected = replay(kind, written, 0, records);
        for (final int lanes : LANES)
        {
            assertSame(expected, replay(kind, written, lanes, records), kind + ", " + lanes + " lanes");
        }
    }

    /**
     * The sorted replay (engine changelog's SortedReplay: chunks of records sorted stably by the table line they
     * write, then applied in that order; the default since 2026-11-30) against the record-by-record replay, in chunks
     * of several sizes, sorting every bit of the lines or only the top 4 (buckets of lines, each in log order).
     */
    @ParameterizedTest
    @ValueSource(strings = {"chain", "qht", "fifo-bloom"})
    void theSortedReplayLeavesTheRecordByRecordReplaysBytes(final String kind) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() ^ kind.hashCode());
        final Path written = dir.resolve("written");
        Files.createDirectories(written);
        final long records = write(kind, written, random);
        final byte[] expected = replay(kind, written, 0, records);
        for (final int[] setting : SORTED_SETTINGS)
        {
            System.setProperty(SORTED, Integer.toString(setting[0]));
            System.setProperty(SORT_BITS, Integer.toString(setting[1]));
            assertSame(expected, replay(kind, written, 1, records), kind + ", sorted in chunks of " + setting[0] +
                " records on " + setting[1] + " bits");
        }
    }

    private static void assertSame(final byte[] expected, final byte[] replayed, final String what)
    {
        assertEquals(expected.length, replayed.length, what + ": file length");
        final int differs = firstDifference(expected, replayed);
        assertEquals(-1, differs, what + ": the replayed file differs from the record-by-record replay's at byte " +
            differs + " (" + TestSeed.replayHint() + ")");
    }

    /** Writes the filter through a log after an empty checkpoint: image.ddf(s) and log-cut are the power cut. */
    private static long write(final String kind, final Path at, final SplittableRandom random) throws IOException
    {
        final Path path = at.resolve(file(kind));
        final long[] elements = random.longs(kind.equals("fifo-bloom") ? 60_000 : 120_000).toArray();
        try (ChangeLog log = ChangeLog.open(at.resolve("log"), OPTIONS))
        {
            if (kind.equals("chain"))
            {
                try (BloomChain chain = BloomChain.create(path, 10_000, 0.01, false, 2, 42))
                {
                    chain.logTo(log);
                    chain.checkpoint();
                    Files.copy(path, at.resolve("image"));
                    for (final long e : elements)
                    {
                        chain.add(("item-" + e).getBytes(StandardCharsets.US_ASCII));
                    }
                    assertTrue(chain.layerCount() >= 4, "the chain grew during the logged adds");
                }
            }
            else
            {
                try (DuplicateFilter filter = builder(kind).file(path).log(log).create())
                {
                    filter.checkpoint();
                    Files.copy(path, at.resolve("image"));
                    for (int i = 0; i < elements.length; i++)
                    {
                        // a fifth of them again, so that rows see repeats and their verdicts depend on order
                        filter.stream(i % 5 == 4 ? elements[random.nextInt(i)] : elements[i]);
                    }
                }
            }
            final long appended = log.appended();
            log.force(appended);
            copyLog(at.resolve("log"), at.resolve("log-cut"));
            return appended;
        }
    }

    private static FilterBuilder builder(final String kind)
    {
        return kind.equals("qht") ? Filters.builder(FilterKind.QHT).memoryBits(1L << 22).seed(42) :
            Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", 10_000).seed(42);
    }

    /** Replays the power cut by {@code lanes} lanes (0: record by record); @return the file's bytes after. */
    private byte[] replay(final String kind, final Path written, final int lanes, final long logBytes)
        throws IOException
    {
        final Path at = Files.createTempDirectory(dir, kind + "-lanes-" + lanes);
        final Path path = at.resolve(file(kind));
        Files.copy(written.resolve("image"), path);
        copyLog(written.resolve("log-cut"), at.resolve("log"));
        System.setProperty(THREADS, Integer.toString(lanes));
        System.setProperty(BootId.PROPERTY, new UUID(31, 31).toString());
        try (ChangeLog log = ChangeLog.open(at.resolve("log"), OPTIONS))
        {
            assertEquals(logBytes, log.appended(), "the copied log ends where the written one did");
            final Recovery recovery;
            if (kind.equals("chain"))
            {
                try (BloomChain chain = BloomChain.open(path))
                {
                    recovery = chain.logTo(log);
                    assertReplayed(recovery);
                    return withoutClockFields(kind, Files.readAllBytes(path));
                }
            }
            try (DuplicateFilter filter = Filters.open(path, log))
            {
                recovery = filter.recovery();
                assertReplayed(recovery);
                return withoutClockFields(kind, Files.readAllBytes(path));
            }
        }
    }

    private static void assertReplayed(final Recovery recovery)
    {
        assertEquals(Recovery.Outcome.REPLAYED, recovery.outcome(), recovery.describe());
        assertTrue(recovery.records() > 50_000, recovery.describe());
    }

    /**
     * The header's clock fields zeroed (the checkpoint's time in the log binding; a fixed-size file's last sync time,
     * FORMAT.md): the only bytes the moment of a replay sets. The table checksum a fixed-size file's flush writes
     * after its replay stays: it covers the state region and the table.
     */
    private static byte[] withoutClockFields(final String kind, final byte[] bytes)
    {
        final int binding = kind.equals("chain") ? LogBinding.SCALING_FILE_OFFSET : LogBinding.FILTER_FILE_OFFSET;
        Arrays.fill(bytes, binding + CHECKPOINT_MILLIS, binding + CHECKPOINT_MILLIS + Long.BYTES, (byte)0);
        if (!kind.equals("chain"))
        {
            Arrays.fill(bytes, FilterFileDescriptor.LAST_SYNC_OFFSET, FilterFileDescriptor.LAST_SYNC_OFFSET + Long.BYTES,
                (byte)0);
        }
        return bytes;
    }

    private static int firstDifference(final byte[] a, final byte[] b)
    {
        for (int i = 0; i < a.length; i++)
        {
            if (a[i] != b[i])
            {
                return i;
            }
        }
        return -1;
    }

    private static String file(final String kind)
    {
        return kind.equals("chain") ? "f.ddfs" : "f.ddf";
    }

    private static void copyLog(final Path from, final Path to) throws IOException
    {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from))
        {
            for (final Path f : files.filter(p -> p.getFileName().toString().endsWith(".ddflog")).toList())
            {
                Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
