package io.ddf.persistence;

import io.ddf.persistence.platform.Libc;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FilterFiles#syncChanges}, the once-a-second sync of many files: every changed file is forced (its marks
 * taken, its durable time moved to the sync's start), together with one write-back of the file system when enough
 * changed; unchanged files cost nothing; a file that cannot be synced is reported and keeps its marks while the
 * others are synced. (What survives a power cut is {@link SyncChangesTest}'s: the power-cut file system is FUSE,
 * where {@code syncfs} is not trusted, so the batch forces each file there.)
 */
final class SyncChangesTogetherTest extends MappedMemoryTestBase
{
    private static final BooleanSupplier UNCHANGED_STATE = () -> false;

    @TempDir
    Path dir;

    private List<FilterFile> files(final int count)
    {
        final List<FilterFile> files = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final FilterFile file = FilterFile.create(dir.resolve("f" + i + ".ddf"), TestFiles.smallSpec());
            file.sync().trackChanges();
            files.add(file);
        }
        return files;
    }

    private static void change(final FilterFile file, final long value)
    {
        new UnsafeBuffer(file.tableAddress(), (int)file.tableLength()).putLongVolatile(8, value);
        file.sync().trackChanges().mark(file.tableAddress() + 8);
    }

    private static List<BooleanSupplier> unchangedStates(final int count)
    {
        final List<BooleanSupplier> states = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            states.add(UNCHANGED_STATE);
        }
        return states;
    }

    @Test
    void manyChangedFilesAreForcedTogetherAndUnchangedOnesCostNothing() throws Exception
    {
        final int count = FilterFiles.BATCH_MIN + 2;
        final List<FilterFile> files = files(count);
        try
        {
            FilterFiles.syncChanges(files, unchangedStates(count), (f, e) -> { throw e; }); // the creations
            Thread.sleep(2);
            final long before = System.currentTimeMillis();
            for (int i = 0; i < count; i++)
            {
                change(files.get(i), i + 1);
            }
            final FilterFiles.Synced synced = FilterFiles.syncChanges(files, unchangedStates(count),
                (f, e) -> { throw e; });
            assertEquals(count, synced.files());
            assertEquals(count, synced.pages(), "one changed page each");
            assertEquals(Libc.available() && !java.nio.file.Files.getFileStore(dir).type().startsWith("fuse"),
                synced.together(),
                "together where syncfs is there");
            for (final FilterFile file : files)
            {
                assertTrue(file.sync().durableSince() >= before, "each file's changes are durable since the sync began");
            }
            final FilterFiles.Synced again = FilterFiles.syncChanges(files, unchangedStates(count),
                (f, e) -> { throw e; });
            assertEquals(count, again.files(), "the header's time brought up to date, one sync behind");
            assertEquals(0, again.pages());
            assertEquals(0, FilterFiles.syncChanges(files, unchangedStates(count), (f, e) -> { throw e; }).files(),
                "nothing changed: nothing forced");
        }
        finally
        {
            files.forEach(FilterFile::close);
        }
    }

    @Test
    void aFileThatCannotBeSyncedIsReportedAndTheOthersAreSynced() throws Exception
    {
        final int count = FilterFiles.BATCH_MIN;
        final List<FilterFile> files = files(count);
        final FilterFile truncated = files.get(count / 2);
        try
        {
            for (int i = 0; i < count; i++)
            {
                change(files.get(i), i + 1);
            }
            try (RandomAccessFile raw = new RandomAccessFile(truncated.path().toFile(), "rw"))
            {
                raw.setLength(4096); // as another process might: touching the lost pages would crash
            }
            final Map<FilterFile, RuntimeException> failed = new IdentityHashMap<>();
            final FilterFiles.Synced synced = FilterFiles.syncChanges(files, unchangedStates(count), failed::put);
            assertEquals(1, failed.size());
            assertSame(truncated, failed.keySet().iterator().next());
            assertEquals(FilterFileException.Reason.TRUNCATED,
                ((FilterFileException)failed.get(truncated)).reason());
            assertEquals(count - 1, synced.files(), "the others are synced");
        }
        finally
        {
            for (final FilterFile file : files)
            {
                try
                {
                    file.close();
                }
                catch (final FilterFileException e)
                {
                    assertSame(truncated, file); // closing refuses to seal a truncated file, and releases it
                }
            }
        }
    }
}
