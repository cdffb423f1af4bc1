package io.ddf.persistence.log;

import io.ddf.persistence.FilterFileException;
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
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The change log's appends, reading, segments, torn tails, numbers and dropping (FORMAT-LOG.md). */
final class ChangeLogTest
{
    /** Small segments and an 8 KiB staging ring: frames cross segments and wrap round the ring within a test. */
    private static final LogOptions SMALL = LogOptions.DEFAULT.withSegmentBytes(8192).withPrefault(false)
        .withStagingBytes(8192);

    @TempDir
    Path dir;

    private static List<long[]> read(final ChangeLog log, final long from)
    {
        final List<long[]> frames = new ArrayList<>();
        final LogReader reader = log.reader(from);
        while (reader.next())
        {
            if (reader.filter() != 0)
            {
                frames.add(new long[] {reader.filter(), reader.op(), reader.aux(), reader.hash(), reader.arg(),
                    reader.units() == 2 ? reader.arg(3) : -1, reader.position()});
            }
        }
        assertFalse(reader.stoppedEarly(), "a frame before the appended position did not validate");
        return frames;
    }

    @Test
    void framesAppendedAcrossSegmentsReadBackInOrderAndSurviveAReopen()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final List<long[]> written = new ArrayList<>();
        final Path logDir = dir.resolve("log");
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            assertTrue(log.openReport().created());
            for (int i = 0; i < 1000; i++)
            {
                final long hash = random.nextLong();
                final int aux = random.nextInt(LogFormat.MAX_AUX + 1);
                if (random.nextInt(4) == 0)
                {
                    log.append2(7, 0x20, aux, hash, i, hash ^ 1, 3, 4, 5);
                    written.add(new long[] {7, 0x20, aux, hash, i, hash ^ 1});
                }
                else
                {
                    log.append(5, 0x10, aux, hash, i);
                    written.add(new long[] {5, 0x10, aux, hash, i, -1});
                }
            }
            assertEquals(log.reserved(), log.appended());
            final List<long[]> read = read(log, 0);
            assertFrames(written, read);
            assertTrue(log.stats().segments() > 3, "8 KiB segments: " + log.stats().segments());
        }
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            assertFalse(log.openReport().created());
            assertEquals(0, log.openReport().cutFrames());
            assertFrames(written, read(log, 0));
            log.append(5, 0x10, 0, 42, 43);
            written.add(new long[] {5, 0x10, 0, 42, 43, -1});
        }
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            assertFrames(written, read(log, 0));
        }
    }

    private static void assertFrames(final List<long[]> written, final List<long[]> read)
    {
        assertEquals(written.size(), read.size());
        for (int i = 0; i < written.size(); i++)
        {
            for (int w = 0; w < 6; w++)
            {
                assertEquals(written.get(i)[w], read.get(i)[w], "frame " + i + " word " + w);
            }
        }
    }

    @Test
    void aTornTailIsCutAtTheFirstInvalidFrameAndAppendsContinueThere() throws IOException
    {
        final Path logDir = dir.resolve("log");
        final long tornAt;
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            for (int i = 0; i < 100; i++)
            {
                log.append(1, 0x10, 0, i, 0);
            }
            tornAt = 60 * LogFormat.UNIT;
        }
        // a power cut: the page holding frame 60 kept only part of it (its check word is stale)
        final Path segment = logDir.resolve(LogFormat.fileName(0));
        try (RandomAccessFile raf = new RandomAccessFile(segment.toFile(), "rw"))
        {
            raf.seek(LogFormat.HEADER_BYTES + tornAt + 24);
            raf.writeLong(0x1234);
        }
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            assertEquals(tornAt, log.openReport().end());
            assertEquals(39, log.openReport().cutFrames(), "the frames after the torn one, cut");
            assertEquals(60, read(log, 0).size());
            log.append(1, 0x10, 0, 1000, 0);
            final List<long[]> frames = read(log, 0);
            assertEquals(61, frames.size());
            assertEquals(1000, frames.get(60)[3]);
        }
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            final List<long[]> frames = read(log, 0);
            assertEquals(61, frames.size(), "the stale frames after the old cut never come back");
        }
    }

    @Test
    void staleBytesAtAnotherPositionNeverValidate() throws IOException
    {
        final Path logDir = dir.resolve("log");
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            log.append(1, 0x10, 0, 11, 12);
            log.append(1, 0x10, 0, 13, 14);
        }
        final Path segment = logDir.resolve(LogFormat.fileName(0));
        final byte[] bytes = Files.readAllBytes(segment);
        // frame 0's bytes copied to position 64: a frame of another position
        System.arraycopy(bytes, LogFormat.HEADER_BYTES, bytes, LogFormat.HEADER_BYTES + 64, 32);
        Files.write(segment, bytes);
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            assertEquals(64, log.openReport().end());
        }
    }

    @Test
    void sharedAppendsFromManyThreadsAreAllReadAndTheAppendedPositionWaitsForThem() throws InterruptedException
    {
        final int threads = 4;
        final int each = 20_000;
        try (ChangeLog log = ChangeLog.open(dir.resolve("log"), LogOptions.DEFAULT.withSegmentBytes(1 << 16)))
        {
            final AtomicLong sum = new AtomicLong();
            final List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                final int thread = t + 1;
                running.add(new Thread(() ->
                {
                    final LogAppender appender = log.appender();
                    for (int i = 0; i < each; i++)
                    {
                        if (i % 3 == 0)
                        {
                            appender.append2(thread, 0x20, 0, i, thread, 0, 0, 0, 0);
                        }
                        else
                        {
                            appender.append(thread, 0x10, 0, i, thread);
                        }
                        sum.addAndGet(i);
                    }
                    appender.force();
                }));
            }
            running.forEach(Thread::start);
            for (final Thread thread : running)
            {
                thread.join();
            }
            assertEquals(log.reserved(), log.appended());
            assertTrue(log.forced() >= log.appended() - 64 || log.force(log.appended()) == log.appended());
            long read = 0;
            long total = 0;
            final long[] next = new long[threads + 1];
            final LogReader reader = log.reader(0);
            while (reader.next())
            {
                if (reader.filter() != 0)
                {
                    read++;
                    total += reader.hash();
                    assertEquals(next[reader.filter()]++, reader.hash(), "one thread's frames in its order");
                }
            }
            assertEquals((long)threads * each, read);
            assertEquals(sum.get(), total);
        }
    }

    @Test
    void filterNumbersAreNeverGivenTwiceEvenAfterTheirSegmentsAreDropped()
    {
        final Path logDir = dir.resolve("log");
        final int first;
        final int second;
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            first = log.newFilterNumber();
            second = log.newFilterNumber();
            assertTrue(second > first && first >= 1);
            for (int i = 0; i < 2000; i++)
            {
                log.append(first, 0x10, 0, i, 0);
            }
            log.force(log.appended());
            assertTrue(log.dropBefore(log.appended()) > 0);
            assertTrue(log.start() > 0);
        }
        try (ChangeLog log = ChangeLog.open(logDir, SMALL))
        {
            assertTrue(log.newFilterNumber() > second);
        }
    }

    @Test
    void aSecondOpenOfTheSameDirectoryIsRefused()
    {
        try (ChangeLog log = ChangeLog.open(dir.resolve("log"), SMALL))
        {
            final FilterFileException e = assertThrows(FilterFileException.class,
                () -> ChangeLog.open(dir.resolve("log"), SMALL));
            assertEquals(FilterFileException.Reason.LOCKED, e.reason());
            assertTrue(log.logId() != 0);
        }
    }

    @Test
    void aSegmentOfAnotherLogIsRefusedByName() throws IOException
    {
        try (ChangeLog log = ChangeLog.open(dir.resolve("a"), SMALL))
        {
            log.append(1, 0x10, 0, 1, 1);
        }
        try (ChangeLog log = ChangeLog.open(dir.resolve("b"), SMALL))
        {
            for (int i = 0; i < 600; i++)
            {
                log.append(1, 0x10, 0, 1, 1);
            }
        }
        Files.copy(dir.resolve("a").resolve(LogFormat.fileName(0)), dir.resolve("b").resolve(LogFormat.fileName(0)),
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        final FilterFileException e = assertThrows(FilterFileException.class,
            () -> ChangeLog.open(dir.resolve("b"), SMALL));
        assertEquals(FilterFileException.Reason.CORRUPT, e.reason());
        assertTrue(e.getMessage().contains(LogFormat.fileName(0)), e.getMessage());
    }
}
