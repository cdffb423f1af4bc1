package io.ddf.persistence;

import io.ddf.persistence.testing.ChildJvm;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static io.ddf.persistence.FilterFileException.Reason.LOCKED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One writer at a time, across threads of one JVM and across processes. */
class FilterFileLockTest extends MappedMemoryTestBase
{
    @TempDir
    Path dir;

    @Test
    void secondOpenInTheSameJvmIsLockedAndTheFirstKeepsItsLock() throws Exception
    {
        final Path path = dir.resolve("shared.ddf");
        TestFiles.createClosed(path, TestFiles.smallSpec());
        try (FilterFile first = FilterFile.open(path))
        {
            final UnsafeBuffer table = new UnsafeBuffer(first.tableAddress(), (int)first.tableLength());
            table.putLong(0, 1L);

            final FilterFileException ex = assertThrows(FilterFileException.class, () -> FilterFile.open(path));
            assertEquals(LOCKED, ex.reason());
            assertTrue(ex.getMessage().contains(path.toString()), ex.getMessage());

            assertTrue(first.locked());
            assertEquals(1L, table.getLong(0));
            table.putLong(0, 2L);
            first.flush();
            assertEquals("LOCKED", probe(path), "the first holder's OS lock must survive the refused open");
        }
        assertEquals("OPENED", probe(path));
    }

    @Test
    void anotherPathToTheSameFileIsLocked() throws Exception
    {
        final Path path = dir.resolve("original.ddf");
        TestFiles.createClosed(path, TestFiles.smallSpec());
        final Path link = Files.createLink(dir.resolve("hard-link.ddf"), path);
        try (FilterFile first = FilterFile.open(path))
        {
            assertEquals(LOCKED, assertThrows(FilterFileException.class, () -> FilterFile.open(link)).reason());
            assertTrue(first.locked());
            assertEquals("LOCKED", probe(path));
        }
    }

    @Test
    void anotherProcessIsLockedOutWhileTheCreatorHoldsTheFile() throws Exception
    {
        final Path path = dir.resolve("created.ddf");
        try (FilterFile file = FilterFile.create(path, TestFiles.smallSpec()))
        {
            assertTrue(file.locked());
            assertEquals("LOCKED", probe(path));
            FilterFile.inspect(path); // must not drop the lock either
            assertEquals("LOCKED", probe(path));
        }
        assertEquals("OPENED", probe(path));
        try (FilterFile again = FilterFile.open(path))
        {
            assertTrue(again.locked(), "a closed file can be opened again in the same JVM");
        }
    }

    /**
     * Runs {@link LockProbe} in a new JVM.
     *
     * @return the first word it printed: OPENED or a Reason.
     */
    private static String probe(final Path path) throws IOException, InterruptedException
    {
        final Process process = ChildJvm.start(LockProbe.class, path.toString());
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "probe timed out");
        assertEquals(0, process.exitValue(), out);
        System.out.println("probe: " + out);
        final String lastLine = out.substring(out.lastIndexOf('\n') + 1);
        return lastLine.split(" ", 2)[0];
    }
}
