package io.ddf.ingest.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12's file defects: DEL must unmap the file (the disk was freed only at restart),
 * and BF.RESERVE / CF.RESERVE of a filter larger than the free disk must be refused before anything is written.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@SharedServerTestBase.Forgetting // about the files of ddf's fixed-size filters
class FileLifecycleTest extends SharedServerTestBase
{
    /** @return this process's mappings of files whose path contains the text (the daemon runs in this JVM). */
    private static List<String> mappings(final String text) throws IOException
    {
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.contains(text)).toList();
    }

    @Test
    void closingAFilterUnmapsItsFile() throws IOException
    {
        final Path file = dir.resolve("closed-one.ddf");
        final io.ddf.engine.DuplicateFilter filter = io.ddf.engine.Filters.builder(io.ddf.engine.FilterKind.QHT)
            .memoryBits(1 << 20).file(file).create();
        assertFalse(mappings("closed-one").isEmpty());
        filter.close();
        assertEquals(List.of(), mappings("closed-one"));
    }

    @Test
    void delUnmapsTheFileSoItsBlocksAreFreed() throws IOException
    {
        try (RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "gone", "0.01", "100000"));
            assertEquals("OK", c.call("CF.RESERVE", "gone-cf", "100000"));
            assertEquals(1L, c.call("BF.ADD", "gone", "x"));
            assertFalse(mappings("gone.ddf").isEmpty(), "the filter's file is mapped while it exists");
            assertEquals(1L, c.call("DEL", "gone"));
            assertEquals(1L, c.call("UNLINK", "gone-cf"));
            assertEquals(List.of(), mappings("gone"), "a deleted file still mapped keeps its blocks allocated");
            assertEquals(0L, c.call("EXISTS", "gone"));
        }
    }

    @Test
    void aFilterLargerThanTheFreeDiskIsRefusedBeforeWriting() throws IOException
    {
        final long free = Files.getFileStore(dir).getUsableSpace();
        // A fifo-bloom at 1 % takes about 9.6 bits per item: this capacity needs about twice the free space.
        final long capacity = free / 9 * 8 * 2;
        try (RespClient c = server.client())
        {
            final Object reply = c.call("BF.RESERVE", "huge", "0.01", Long.toString(capacity));
            assertTrue(String.valueOf(reply).startsWith("-ERR not enough disk"), String.valueOf(reply));
            final Object cf = c.call("CF.RESERVE", "huge-cf", Long.toString(free / 2));
            assertTrue(String.valueOf(cf).startsWith("-ERR not enough disk"), String.valueOf(cf));
            assertEquals(0L, c.call("EXISTS", "huge"));
            assertEquals(0L, c.call("EXISTS", "huge-cf"));
            try (var files = Files.list(dir.resolve("data")))
            {
                assertEquals(List.of(), files.filter(f -> f.getFileName().toString().contains("huge")).toList(),
                    "nothing written");
            }
            assertEquals("PONG", c.call("PING"));
        }
    }
}
