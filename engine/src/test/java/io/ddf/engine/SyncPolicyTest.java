package io.ddf.engine;

import io.ddf.engine.internal.BackgroundSync;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sync policies as an embedder sees them: which one a filter gets, what a sync forces (only what changed, and
 * nothing for an unchanged filter), that {@code always} leaves nothing unsynced after a call, and how a reopened
 * file says it was left. Power cuts themselves are {@code SyncPolicyPowerCutTest}'s.
 */
final class SyncPolicyTest extends EngineTestBase
{
    @TempDir
    Path dir;

    private FilterBuilder qht(final String name)
    {
        return Filters.builder(FilterKind.QHT).memoryBits(1 << 20).seed(7).file(dir.resolve(name));
    }

    @Test
    void everysecIsTheDefaultAndAnAnonymousFilterIsNeverSynced()
    {
        try (DuplicateFilter named = qht("named.ddf").create();
             DuplicateFilter anonymous = Filters.builder(FilterKind.QHT).memoryBits(1 << 20).sync(SyncPolicy.ALWAYS)
                 .create())
        {
            assertEquals(SyncPolicy.EVERYSEC, SyncPolicy.DEFAULT);
            assertEquals(SyncPolicy.EVERYSEC, named.syncPolicy());
            assertEquals(SyncPolicy.NO, anonymous.syncPolicy());
        }
    }

    @Test
    void aSyncForcesTheLogThroughWhatChangedAndNothingWhenNothingDid()
    {
        // everysec writes through the filter's change log (FORMAT-LOG.md): a sync forces the log, not the table
        try (DuplicateFilter filter = qht("everysec.ddf").sync(SyncPolicy.EVERYSEC).create())
        {
            filter.sync();
            assertEquals(-1, filter.sync(), "nothing changed: no system call");
            for (long e = 0; e < 100; e++)
            {
                filter.stream(e);
            }
            assertEquals(0, filter.sync(), "the 100 elements' records forced");
            assertEquals(-1, filter.sync());
            assertEquals(Verdict.DUPLICATE, filter.stream(5));
            assertEquals(-1, filter.sync(), "a duplicate changes nothing the log records");
        }
    }

    @Test
    void alwaysLeavesNothingUnsyncedAfterACall()
    {
        try (DuplicateFilter filter = qht("always.ddf").sync(SyncPolicy.ALWAYS).create())
        {
            assertEquals(SyncPolicy.ALWAYS, filter.syncPolicy());
            filter.stream(1L);
            assertTrue(filter.sync() <= 0, "the call forced its change; at most the header's time is left");
            final long[] batch = new long[64];
            for (int i = 0; i < batch.length; i++)
            {
                batch[i] = 1000 + i;
            }
            filter.stream(batch, 0, batch.length, new boolean[batch.length]);
            assertTrue(filter.sync() <= 0, "the batch forced its changes in one sync");
        }
    }

    @Test
    void noTracksNothingAndItsSyncForcesTheWholeFile()
    {
        try (DuplicateFilter filter = qht("no.ddf").sync(SyncPolicy.NO).create())
        {
            assertEquals(SyncPolicy.NO, filter.syncPolicy());
            filter.stream(1L);
            assertEquals(0, filter.sync(), "an explicit sync still forces, the whole file");
            assertEquals(0, filter.sync());
        }
    }

    @Test
    void theBackgroundCycleSyncsEverysecFilters()
    {
        try (DuplicateFilter filter = qht("background.ddf").sync(SyncPolicy.EVERYSEC).create())
        {
            for (long e = 0; e < 100; e++)
            {
                filter.stream(e);
            }
            final long before = Filters.syncStats().cycles();
            BackgroundSync.runOnce();
            assertTrue(Filters.syncStats().cycles() > before);
            assertTrue(filter.sync() <= 0, "the cycle forced the changed pages");
            assertTrue(filter.durableSince() > 0);
        }
    }

    @Test
    void aReopenedFileSaysHowItWasLeft() throws IOException
    {
        final Path path = dir.resolve("left.ddf");
        final Path crashed = dir.resolve("crashed.ddf");
        try (DuplicateFilter filter = qht("left.ddf").create())
        {
            assertEquals(LastClose.Kind.CREATED, filter.lastClose().kind());
            filter.stream(1L);
            filter.sync();
            filter.stream(2L);
            filter.sync();
            filter.checkpoint(); // the table itself forced: the header's last sync time is the checkpoint's start
            // a copy taken while open is a file left by a crash: unsealed, its time that of the last completed sync
            Files.copy(path, crashed);
        }
        try (DuplicateFilter filter = Filters.open(path))
        {
            assertEquals(LastClose.Kind.CLEAN, filter.lastClose().kind());
            assertTrue(filter.lastClose().lastSync() > 0, "when the close began");
            assertTrue(filter.lastClose().describe(System.currentTimeMillis()).startsWith("clean close at "));
        }
        try (DuplicateFilter filter = Filters.open(crashed))
        {
            final LastClose last = filter.lastClose();
            assertEquals(LastClose.Kind.CRASH, last.kind());
            assertTrue(last.lastSync() > 0, "the checkpoint completed before the copy");
            assertTrue(last.describe(System.currentTimeMillis()).contains("may be missing"), last.toString());
        }
    }

    @Test
    void aPolicyIsNamedAsInRedis()
    {
        assertEquals(SyncPolicy.ALWAYS, SyncPolicy.parse("always"));
        assertEquals(SyncPolicy.EVERYSEC, SyncPolicy.parse("EverySec"));
        assertEquals(SyncPolicy.NO, SyncPolicy.parse(" no "));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> SyncPolicy.parse("sometimes"));
        assertTrue(e.getMessage().contains("always, everysec or no"), e.getMessage());
    }
}
