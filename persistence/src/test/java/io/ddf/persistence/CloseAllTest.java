package io.ddf.persistence;

import io.ddf.persistence.testing.PowerCutFileSystem;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.ddf.persistence.FilterFileException.Reason.TRUNCATED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Closing many files at once seals each as close() would, and one bad file does not stop the others. */
class CloseAllTest extends MappedMemoryTestBase
{
    @TempDir
    Path dir;

    @Test
    void closeAllSealsChangedAndUnchangedFiles()
    {
        final List<FilterFile> files = new ArrayList<>();
        for (int i = 0; i < 6; i++)
        {
            final Path path = dir.resolve("f" + i + ".ddf");
            TestFiles.createClosed(path, TestFiles.smallSpec());
            final FilterFile file = FilterFile.open(path);
            if (i % 2 == 0)
            {
                new UnsafeBuffer(file.tableAddress(), 64).putLong(0, i + 1);
            }
            files.add(file);
        }
        FilterFiles.closeAll(files);
        for (int i = 0; i < 6; i++)
        {
            assertFalse(files.get(i).locked());
            try (FilterFile file = FilterFile.open(dir.resolve("f" + i + ".ddf")))
            {
                assertEquals(FilterFile.TableCheck.CHECKSUM_VERIFIED, file.tableCheck(), "file " + i);
                assertEquals(i % 2 == 0 ? i + 1 : 0, new UnsafeBuffer(file.tableAddress(), 64).getLong(0));
            }
        }
    }

    /**
     * On FUSE, syncfs writes the dirty pages to the file system's process and returns without asking it to make
     * them durable: a clean shutdown there must force each file instead.
     */
    @Test
    void closeAllSurvivesAPowerCutOnFuse() throws IOException
    {
        PowerCutFileSystem.assumeAvailable();
        try (PowerCutFileSystem fs = PowerCutFileSystem.mount(dir))
        {
            final Path path = fs.root().resolve("fuse.ddf");
            TestFiles.createClosed(path, TestFiles.smallSpec());
            final FilterFile file = FilterFile.open(path);
            new UnsafeBuffer(file.tableAddress(), 64).putLong(0, 4711);
            FilterFiles.closeAll(List.of(file));
            fs.cut();
            try (FilterFile reopened = FilterFile.open(path))
            {
                assertEquals(4711, new UnsafeBuffer(reopened.tableAddress(), 64).getLong(0));
            }
        }
    }

    @Test
    void aTruncatedFileFailsAloneAndTheOthersAreSealed() throws IOException
    {
        final FilterFile good = FilterFile.create(dir.resolve("good.ddf"), TestFiles.smallSpec());
        final FilterFile cut = FilterFile.create(dir.resolve("cut.ddf"), TestFiles.smallSpec());
        try (RandomAccessFile raf = new RandomAccessFile(dir.resolve("cut.ddf").toFile(), "rw"))
        {
            raf.setLength(8192);
        }
        final FilterFileException ex = assertThrows(FilterFileException.class,
            () -> FilterFiles.closeAll(List.of(cut, good)));
        assertEquals(TRUNCATED, ex.reason(), ex.getMessage());
        assertTrue(ex.getMessage().contains("cut.ddf"), ex.getMessage());
        try (FilterFile file = FilterFile.open(dir.resolve("good.ddf")))
        {
            assertEquals(FilterFile.TableCheck.CHECKSUM_VERIFIED, file.tableCheck());
        }
    }

    @Test
    void flushAndCloseOfAFileTruncatedFromOutsideFailNamingItInsteadOfCrashing() throws IOException
    {
        final Path path = dir.resolve("shrunk.ddf");
        final FilterFile file = FilterFile.create(path, TestFiles.smallSpec());
        try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw"))
        {
            raf.setLength(4096);
        }
        final FilterFileException flush = assertThrows(FilterFileException.class, file::flush);
        assertEquals(TRUNCATED, flush.reason(), flush.getMessage());
        assertTrue(flush.getMessage().contains(path.toString()), flush.getMessage());
        assertEquals(TRUNCATED, assertThrows(FilterFileException.class, file::close).reason());
        assertFalse(file.locked(), "released anyway");
    }
}
