package io.ddf.persistence;

import io.ddf.persistence.platform.Descriptors;
import com.sun.jna.Library;
import com.sun.jna.Native;
import io.ddf.persistence.testing.ChildJvm;
import io.ddf.persistence.testing.PowerCutFileSystem;
import io.ddf.persistence.testing.PowerCutWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static io.ddf.persistence.testing.PowerCutWriter.LOST;
import static io.ddf.persistence.testing.PowerCutWriter.MAPPED_LENGTH;
import static io.ddf.persistence.testing.PowerCutWriter.SYNCED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The power-cut file system's own semantics, which every power-cut test rests on: what a sync covered survives a cut
 * and nothing else does, for writes through a descriptor and for stores into a shared mapping, including the dirty
 * pages the kernel writes back after the writer was killed; and it refuses fallocate.
 */
final class PowerCutFileSystemTest
{
    /** Linux's EOPNOTSUPP. */
    private static final int EOPNOTSUPP = 95;

    @TempDir
    Path work;

    @BeforeAll
    static void available()
    {
        PowerCutFileSystem.assumeAvailable();
    }

    @Test
    void aCutKeepsWhatWasSyncedAndDropsTheRest() throws Exception
    {
        try (PowerCutFileSystem fs = PowerCutFileSystem.mount(work))
        {
            final Path dir = fs.root();
            // standard input a pipe: the writer exits when this JVM does, whatever happens to the test
            final Process writer = new ProcessBuilder(ChildJvm.command(PowerCutWriter.class, dir.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try
            {
                writeThenCut(fs, writer);
            }
            finally
            {
                writer.destroyForcibly();
            }
            assertEquals(SYNCED, Files.readString(dir.resolve("write-fsync")), "write + fsync survives; the " +
                "append after the fsync does not");
            assertEquals(0, Files.size(dir.resolve("write")), "a write without a sync is lost (the name stays: " +
                "directory operations are durable at once)");
            final byte[] msynced = Files.readAllBytes(dir.resolve("mmap-msync"));
            assertEquals(MAPPED_LENGTH, msynced.length);
            assertEquals(SYNCED, ascii(msynced, 0, SYNCED.length()), "mmap + msync survives");
            assertArrayEquals(new byte[LOST.length()], Arrays.copyOfRange(msynced, MAPPED_LENGTH / 2,
                MAPPED_LENGTH / 2 + LOST.length()), "the page dirtied after the msync is lost");
            assertArrayEquals(new byte[MAPPED_LENGTH], Files.readAllBytes(dir.resolve("mmap")),
                "mmap without msync is lost, even the dirty pages the kernel writes back after the kill");
        }
    }

    private static void writeThenCut(final PowerCutFileSystem fs, final Process writer) throws IOException
    {
        final BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(),
            StandardCharsets.UTF_8));
        assertEquals("READY", out.readLine(), "the writer failed");
        // Before the cut every write is visible through the mount, and only the synced ones below it.
        final Path dir = fs.root();
        assertEquals(SYNCED + LOST, Files.readString(dir.resolve("write-fsync")));
        assertEquals(LOST, Files.readString(dir.resolve("write")));
        assertEquals(SYNCED, Files.readString(fs.durable().resolve("write-fsync")));
        assertEquals(0, Files.size(fs.durable().resolve("write")));
        final String dropped = fs.cut(writer.toHandle());
        assertTrue(dropped.startsWith("ok"), dropped);
    }

    @Test
    void aSecondCutKeepsWhatTheFirstKept() throws Exception
    {
        try (PowerCutFileSystem fs = PowerCutFileSystem.mount(work))
        {
            final Path file = fs.root().resolve("kept");
            try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw"))
            {
                out.write(SYNCED.getBytes(StandardCharsets.US_ASCII));
                out.getFD().sync();
            }
            fs.cut();
            fs.cut();
            assertEquals(SYNCED, Files.readString(file));
        }
    }

    @Test
    void fallocateIsRefused() throws Exception
    {
        try (PowerCutFileSystem fs = PowerCutFileSystem.mount(work);
             RandomAccessFile file = new RandomAccessFile(fs.root().resolve("f").toFile(), "rw"))
        {
            final LibC libc = Native.load("c", LibC.class);
            final int fd = Descriptors.of(file);
            assertEquals(-1, libc.fallocate(fd, 0, 0, 1 << 20));
            assertEquals(EOPNOTSUPP, Native.getLastError());
            assertEquals(0, file.length());
        }
    }

    private static String ascii(final byte[] bytes, final int from, final int length)
    {
        return new String(bytes, from, length, StandardCharsets.US_ASCII);
    }

    /** fallocate(2), straight from libc (the posix library's wrapper falls back to ftruncate). */
    interface LibC extends Library
    {
        /**
         * @param fd     a descriptor.
         * @param mode   0: allocate.
         * @param offset where.
         * @param length how much.
         * @return 0, or -1 with errno.
         */
        int fallocate(int fd, int mode, long offset, long length);
    }
}
