package io.ddf.persistence.log;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The staging ring (FORMAT-LOG.md, "The staging ring"): frames appended and not yet copied into the segments are in
 * the ring's page cache, so a process killed then loses none of them (the next open copies them); a frame left in the
 * ring never passes for another position, nor survives a cut, a clean close or a reboot.
 *
 * <p>A {@code kill -9} is taken here as the files it leaves: the log directory copied while the log is open (the copy
 * reads the page cache, as the next process would), the open log then abandoned.
 */
final class StagingRingTest
{
    /** Segments of 8 KiB and a ring of 8 KiB: frames cross segments and wrap round the ring. */
    private static final LogOptions SMALL = LogOptions.DEFAULT.withSegmentBytes(8192).withPrefault(false)
        .withStagingBytes(8192);

    @TempDir
    Path dir;

    @Test
    void framesNotYetCopiedSurviveTheProcessAndTheNextOpenCopiesThem() throws IOException
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final Path logDir = dir.resolve("log");
        final Path crashed = dir.resolve("crashed");
        final List<Long> written = new ArrayList<>();
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            for (int i = 0; i < 700; i++) // 22 KiB: the ring wrapped, most frames copied when it needed room
            {
                final long hash = random.nextLong();
                written.add(hash);
                if (i % 3 == 0)
                {
                    log.append2(1, 0x11, i, hash, i, i, i, i, i);
                }
                else
                {
                    log.append(1, 0x10, i, hash, i);
                }
            }
            assertTrue(log.appended() - log.forced() > 0, "nothing forced since the open");
            copyTree(logDir, crashed);
        }
        try (ChangeLog log = ChangeLog.open(crashed, SMALL))
        {
            assertTrue(log.openReport().recoveredBytes() > 0, "some frames were still only in the ring: " +
                log.openReport().describe());
            assertEquals(written, hashes(log), "every frame appended, in order");
        }
    }

    @Test
    void theLogsThreadCopiesAheadOfAnyForce() throws Exception
    {
        final long mib = 1 << 20;
        try (ChangeLog log = ChangeLog.open(dir.resolve("log"), LogOptions.DEFAULT.withSegmentBytes(8 * mib)))
        {
            final long frames = (mib + mib / 2) / LogFormat.UNIT;
            for (long i = 0; i < frames; i++)
            {
                log.append(1, 0x10, 0, i, i);
            }
            final long deadline = System.nanoTime() + 60_000_000_000L; // generous: one background task per chunk
            while (log.copied() < mib && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
            assertTrue(log.copied() >= mib, "copied through " + log.copied() + " of " + log.appended() +
                " with no force");
            assertEquals(0, log.forced(), "nothing forced");
            long read = 0;
            final LogReader reader = log.reader(0);
            while (reader.next())
            {
                assertEquals(read++, reader.hash(), "frame " + (read - 1));
            }
            assertEquals(frames, read);
        }
    }

    @Test
    void aRingTheKernelWroteBackIsReadAfterAReboot() throws IOException
    {
        final Path crashed = crashAfter(50); // killed; the kernel wrote every page back before the machine stopped
        final String before = System.getProperty(BootId.PROPERTY);
        System.setProperty(BootId.PROPERTY, UUID.randomUUID().toString());
        try (ChangeLog log = ChangeLog.open(crashed, SMALL))
        {
            assertEquals(50 * LogFormat.UNIT, log.openReport().recoveredBytes(), log.openReport().describe());
            assertEquals(50, hashes(log).size());
        }
        finally
        {
            restore(before);
        }
    }

    @Test
    void aRingWhoseHeaderIsNotThisLogsIsNotRead() throws IOException
    {
        final Path crashed = crashAfter(50);
        overwrite(crashed.resolve(StagingRing.FILE), 8, 0x5555); // the log id: another log's ring, copied here
        try (ChangeLog log = ChangeLog.open(crashed, SMALL))
        {
            assertEquals(0, log.openReport().recoveredBytes());
            assertEquals(0, log.openReport().end(), "the segments held nothing: nothing had been copied or forced");
        }
    }

    @Test
    void aFrameLeftInTheRingAfterACutNeverComesBack() throws IOException
    {
        final Path crashed = crashAfter(100);
        // frame 60 torn in the crashed process's ring (a writer killed between its words and its check)
        overwrite(crashed.resolve(StagingRing.FILE), StagingRing.HEADER_BYTES + (60 * LogFormat.UNIT & 8191) + 24,
            0x1234);
        try (ChangeLog log = ChangeLog.open(crashed, SMALL))
        {
            assertEquals(60 * LogFormat.UNIT, log.openReport().end(), log.openReport().describe());
            for (int i = 0; i < 5; i++)
            {
                log.append(1, 0x10, 0, 1000 + i, 0);
            }
            copyTree(crashed, dir.resolve("again")); // killed again before any copy or force
        }
        try (ChangeLog log = ChangeLog.open(dir.resolve("again"), SMALL))
        {
            final List<Long> expected = new ArrayList<>();
            for (long i = 0; i < 60; i++)
            {
                expected.add(i);
            }
            for (long i = 0; i < 5; i++)
            {
                expected.add(1000 + i);
            }
            assertEquals(expected, hashes(log), "frames 61 to 99 of the first process stay cut");
        }
    }

    @Test
    void aCleanCloseRetiresTheRing() throws IOException
    {
        final Path logDir = dir.resolve("log");
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            for (int i = 0; i < 100; i++)
            {
                log.append(1, 0x10, 0, i, 0);
            }
        }
        // a power cut tore frame 60 in the segment after the clean close; the ring still holds it, and must not mend it
        overwrite(logDir.resolve(LogFormat.fileName(0)), LogFormat.HEADER_BYTES + 60 * LogFormat.UNIT + 24, 0x1234);
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            assertEquals(0, log.openReport().recoveredBytes());
            assertEquals(60 * LogFormat.UNIT, log.openReport().end());
        }
    }

    @Test
    void manyWritersWrappingASmallRingLoseNoFrame() throws Exception
    {
        final Path logDir = dir.resolve("log");
        final int threads = 4;
        final int each = 5000;
        try (ChangeLog log = ChangeLog.open(logDir, LogOptions.DEFAULT.withSegmentBytes(64 * 1024)
            .withStagingBytes(4096)))
        {
            final List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                final int filter = t + 1;
                writers.add(new Thread(() ->
                {
                    for (int i = 0; i < each; i++)
                    {
                        if (i % 5 == 0)
                        {
                            log.append2(filter, 0x11, 0, i, i, i, i, i, i);
                        }
                        else
                        {
                            log.append(filter, 0x10, 0, i, 0);
                        }
                    }
                }));
            }
            writers.forEach(Thread::start);
            for (final Thread w : writers)
            {
                w.join();
            }
            final long[] next = new long[threads + 1];
            final LogReader reader = log.reader(0);
            while (reader.next())
            {
                if (reader.filter() != 0)
                {
                    assertEquals(next[reader.filter()]++, reader.hash(), "filter " + reader.filter() + "'s order");
                }
            }
            assertFalse(reader.stoppedEarly());
            for (int t = 1; t <= threads; t++)
            {
                assertEquals(each, next[t], "frames of writer " + t);
            }
        }
    }

    /** @return the files a process killed after appending frames 0 to {@code frames - 1} leaves (none copied). */
    private Path crashAfter(final int frames) throws IOException
    {
        final Path logDir = dir.resolve("log");
        final Path crashed = dir.resolve("crashed");
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            for (int i = 0; i < frames; i++)
            {
                log.append(1, 0x10, 0, i, 0);
            }
            copyTree(logDir, crashed);
        }
        return crashed;
    }

    private static void overwrite(final Path file, final long offset, final long value) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.seek(offset);
            raf.writeLong(value);
        }
    }

    private static List<Long> hashes(final ChangeLog log)
    {
        final List<Long> hashes = new ArrayList<>();
        final LogReader reader = log.reader(0);
        while (reader.next())
        {
            if (reader.filter() != 0)
            {
                hashes.add(reader.hash());
            }
        }
        assertFalse(reader.stoppedEarly());
        return hashes;
    }

    private static void copyTree(final Path from, final Path to) throws IOException
    {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from))
        {
            for (final Path f : files.toList())
            {
                // not the lock, nor a segment the log's thread is making ahead (renamed under the copy)
                if (!f.getFileName().toString().equals("LOCK") && !f.getFileName().toString().startsWith("."))
                {
                    Files.copy(f, to.resolve(f.getFileName()));
                }
            }
        }
    }

    private static void restore(final String before)
    {
        if (before == null)
        {
            System.clearProperty(BootId.PROPERTY);
        }
        else
        {
            System.setProperty(BootId.PROPERTY, before);
        }
    }
}
