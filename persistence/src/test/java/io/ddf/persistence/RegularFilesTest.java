package io.ddf.persistence;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static io.ddf.persistence.FilterFileException.Reason.FOREIGN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A FIFO, a device or a directory is refused before it is opened: opening a FIFO would block forever. */
class RegularFilesTest extends MappedMemoryTestBase
{
    @TempDir
    Path dir;

    @Test
    void fifoIsRefusedByOpenInspectAndReadOnlyOpenWithoutBlocking() throws Exception
    {
        final Path fifo = dir.resolve("pipe.ddf");
        final Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertTrue(mkfifo.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, mkfifo.exitValue());
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () ->
        {
            assertRefused(assertThrows(FilterFileException.class, () -> FilterFile.open(fifo)), fifo);
            assertRefused(assertThrows(FilterFileException.class, () -> FilterFile.inspect(fifo)), fifo);
            assertRefused(assertThrows(FilterFileException.class, () -> FilterFile.openReadOnly(fifo)), fifo);
        });
    }

    @Test
    void deviceAndDirectoryAreRefused()
    {
        assertRefused(assertThrows(FilterFileException.class, () -> FilterFile.open(Path.of("/dev/zero"))),
            Path.of("/dev/zero"));
        assertRefused(assertThrows(FilterFileException.class, () -> FilterFile.inspect(dir)), dir);
    }

    private static void assertRefused(final FilterFileException ex, final Path path)
    {
        assertEquals(FOREIGN, ex.reason(), ex.getMessage());
        assertTrue(ex.getMessage().contains(path.toString()) && ex.getMessage().contains("not a regular file"),
            ex.getMessage());
    }
}
