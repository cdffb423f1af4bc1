package io.ddf.engine;

import io.ddf.persistence.log.BootId;
import io.ddf.persistence.log.Recovery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The open path's decision (FORMAT-LOG.md, "Opening a filter written through a log"), with an injected kernel boot id
 * ({@link BootId#PROPERTY}) so that a reboot needs none: sealed, nothing; not sealed on the same boot, nothing, said;
 * not sealed on another boot, the log replayed from the checkpoint; its log gone, said; a file never logged, tied.
 */
final class LogOpenDecisionTest extends EngineTestBase
{
    private static final int ELEMENTS = 3000;

    @TempDir
    Path dir;

    @AfterEach
    void sameBootAgain()
    {
        System.clearProperty(BootId.PROPERTY);
    }

    private static FilterBuilder bloom(final Path file)
    {
        return Filters.builder(FilterKind.BLOOM).memoryBits(1 << 17).file(file);
    }

    /** Streams, checkpoints after the first third, and copies the file and its log as a crash would leave them. */
    private Path crashCopy(final Path file) throws IOException
    {
        final Path copy = dir.resolve("crashed").resolve("f.ddf");
        Files.createDirectories(copy.getParent());
        try (DuplicateFilter filter = bloom(file).create())
        {
            for (long e = 0; e < ELEMENTS; e++)
            {
                filter.stream(e);
                if (e == ELEMENTS / 3)
                {
                    filter.checkpoint();
                }
            }
            filter.sync(); // the log forced (everysec's force), so that a restart of the machine finds every record
            Files.write(copy, Files.readAllBytes(file));
            LogReplayTest.copyLog(file, copy.resolveSibling("f.ddf.log"));
        }
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-------"));
        return copy;
    }

    @Test
    void aFileClosedCleanlyNeedsNothing() throws IOException
    {
        final Path file = dir.resolve("f.ddf");
        try (DuplicateFilter filter = bloom(file).create())
        {
            filter.stream(1L);
        }
        System.setProperty(BootId.PROPERTY, new UUID(1, 2).toString());
        try (DuplicateFilter filter = Filters.open(file))
        {
            assertEquals(Recovery.Outcome.SEALED, filter.recovery().outcome(), filter.recovery().describe());
            assertTrue(filter.contains(1L));
        }
        assertTrue(Files.isDirectory(dir.resolve("f.ddf.log")), "the log lives next to the file");
    }

    @Test
    void aCrashOfTheProcessAloneReplaysNothingAndSaysWhy() throws IOException
    {
        final Path copy = crashCopy(dir.resolve("f.ddf"));
        try (DuplicateFilter filter = Filters.open(copy))
        {
            final Recovery recovery = filter.recovery();
            assertEquals(Recovery.Outcome.SAME_BOOT, recovery.outcome(), recovery.describe());
            assertEquals(0, recovery.records());
            assertTrue(recovery.describe().contains("same kernel boot id"), recovery.describe());
            for (long e = 0; e < ELEMENTS; e++)
            {
                assertTrue(filter.contains(e), "the page cache kept element " + e);
            }
        }
    }

    @Test
    void aRestartOfTheMachineReplaysTheLogFromTheCheckpoint() throws IOException
    {
        final Path copy = crashCopy(dir.resolve("f.ddf"));
        System.setProperty(BootId.PROPERTY, new UUID(3, 4).toString());
        final long records;
        try (DuplicateFilter filter = Filters.open(copy))
        {
            final Recovery recovery = filter.recovery();
            assertEquals(Recovery.Outcome.REPLAYED, recovery.outcome(), recovery.describe());
            records = recovery.records();
            // every element after the checkpoint was UNSEEN (distinct elements in a filter far from full), one record
            // each; a few may have been false positives, recorded as nothing
            assertTrue(records > ELEMENTS * 2 / 3 - 20 && records < ELEMENTS * 2 / 3 + 1, recovery.describe());
            assertTrue(recovery.describe().contains("replayed " + records + " records"), recovery.describe());
        }
        try (DuplicateFilter filter = Filters.open(copy))
        {
            assertEquals(Recovery.Outcome.SEALED, filter.recovery().outcome(), "closed cleanly after its replay");
        }
    }

    @Test
    void aMissingLogAfterARestartIsSaid() throws IOException
    {
        final Path copy = crashCopy(dir.resolve("f.ddf"));
        try (var files = Files.list(copy.resolveSibling("f.ddf.log")))
        {
            for (final Path p : files.toList())
            {
                Files.delete(p);
            }
        }
        Files.delete(copy.resolveSibling("f.ddf.log"));
        System.setProperty(BootId.PROPERTY, new UUID(5, 6).toString());
        try (DuplicateFilter filter = Filters.open(copy))
        {
            assertEquals(Recovery.Outcome.NO_LOG, filter.recovery().outcome(), filter.recovery().describe());
        }
    }

    @Test
    void aFileNeverLoggedIsTiedToTheLogAtItsFirstOpen()
    {
        final Path file = dir.resolve("old.ddf");
        try (DuplicateFilter filter = bloom(file).sync(SyncPolicy.NO).create())
        {
            filter.stream(7L);
            assertEquals(Recovery.Outcome.NOT_LOGGED, filter.recovery().outcome());
        }
        try (DuplicateFilter filter = Filters.open(file))
        {
            assertEquals(Recovery.Outcome.ATTACHED, filter.recovery().outcome());
            assertTrue(filter.contains(7L));
        }
    }

    @Test
    void anAnonymousFilterLogsNothing()
    {
        try (DuplicateFilter filter = Filters.builder(FilterKind.BLOOM).memoryBits(1 << 14).create())
        {
            filter.stream(1L);
            assertEquals(Recovery.Outcome.NOT_LOGGED, filter.recovery().outcome());
            assertEquals(null, filter.changeLog());
        }
    }
}
