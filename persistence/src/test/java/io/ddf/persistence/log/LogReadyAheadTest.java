package io.ddf.persistence.log;

import io.ddf.persistence.testing.Smaps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The record pages are readied ahead of the tail, a chunk (1 MiB) at a time, on the {@code ddf-log-ahead} thread
 * (LogSegment.readyForAppends): an open readies the first two chunks, and each chunk the tail enters readies the one
 * after the next, so that the appends (the event loops) never take a page's first write. A log that is not asked to
 * prefault readies nothing, and the readying changes no frame (ChangeLogTest's many writers run with it).
 */
class LogReadyAheadTest
{
    private static final long MIB = 1 << 20;
    /** Generous: the readying is one background task per chunk; the wait ends as soon as the pages are there. */
    private static final long DEADLINE_SECONDS = 60;

    @TempDir
    Path dir;

    @Test
    void theTailKeepsAChunkReadiedAheadOfIt() throws Exception
    {
        assumeTrue(Smaps.available(), "reads /proc/self/smaps");
        final Path logDir = dir.resolve("log");
        try (ChangeLog log = ChangeLog.open(logDir, LogOptions.DEFAULT.withSegmentBytes(8 * MIB)))
        {
            awaitResident(logDir, 2 * MIB, "the open's two chunks");
            final long frames = (MIB + MIB / 2) / LogFormat.UNIT; // the tail into the second chunk
            for (long i = 0; i < frames; i++)
            {
                log.append(1, 0x10, 0, i, i);
            }
            awaitResident(logDir, 3 * MIB, "the chunk after the tail's next");
            long read = 0;
            final LogReader reader = log.reader(0);
            while (reader.next())
            {
                if (reader.filter() == 1)
                {
                    assertEquals(read, reader.hash(), "frame " + read + " changed by the readying");
                    read++;
                }
            }
            assertEquals(frames, read);
        }
    }

    @Test
    void aLogNotAskedToPrefaultReadiesNothing() throws Exception
    {
        assumeTrue(Smaps.available(), "reads /proc/self/smaps");
        final Path logDir = dir.resolve("log");
        try (ChangeLog log = ChangeLog.open(logDir, LogOptions.DEFAULT.withSegmentBytes(8 * MIB).withPrefault(false)))
        {
            for (long i = 0; i < (MIB + MIB / 2) / LogFormat.UNIT; i++)
            {
                log.append(1, 0x10, 0, i, i);
            }
            log.force(log.appended());
            final long resident = resident(logDir);
            assertTrue(resident < 2 * MIB + 64 * 1024, "readied without being asked: " + resident + " bytes resident");
        }
    }

    private static void awaitResident(final Path logDir, final long bytes, final String what) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        long resident = resident(logDir);
        while (resident < bytes && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
            resident = resident(logDir);
        }
        assertTrue(resident >= bytes, what + ": " + resident + " bytes of the segment resident after " +
            DEADLINE_SECONDS + " s, expected at least " + bytes);
    }

    /** @return the resident bytes of the log's first segment's mappings (its header page included). */
    private static long resident(final Path logDir) throws IOException
    {
        final List<Path> segments;
        try (Stream<Path> files = Files.list(logDir))
        {
            segments = files.filter(p -> p.getFileName().toString().endsWith(".ddflog") &&
                !p.getFileName().toString().startsWith(".")).sorted().toList();
        }
        long kb = 0;
        for (final Smaps.Mapping mapping : Smaps.of(segments.get(0)))
        {
            kb += mapping.rssKb();
        }
        return kb * 1024;
    }
}
