package io.ddf.persistence;

import io.ddf.persistence.platform.Libc;
import io.ddf.persistence.testing.PowerCutFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A new filter file holds every block of its length on every file system: with fallocate where the file system has
 * it, with zeros where it has not, and with zeros where fallocate said yes and left holes (the posix library's falls
 * back to ftruncate, issue 24). Allocation is read with {@code stat(1)}, not with the code under test.
 */
final class PreallocationTest extends MappedMemoryTestBase
{
    /** 4 MiB of table: large enough that a sparse file shows. */
    private static final FilterFileSpec SPEC = new FilterFileSpec(1, 2, 42L, null, new long[] {1}, 4L << 20);

    @TempDir
    Path dir;

    @Test
    void aFileSystemWithoutFallocateGetsZeros() throws IOException
    {
        PowerCutFileSystem.assumeAvailable();
        try (PowerCutFileSystem fs = PowerCutFileSystem.mount(dir))
        {
            final Path path = fs.root().resolve("no-fallocate.ddf");
            try (FilterFile file = FilterFile.create(path, SPEC))
            {
                assertFullyAllocated(path, file.fileLength());
                assertEquals(Reservation.ZERO_FILLED, file.reservation());
            }
            // creation forced the zeros: the durable layer holds every block too, so a cut cannot leave a hole
            fs.cut();
            assertFullyAllocated(fs.durable().resolve("no-fallocate.ddf"), FilterFile.inspect(path).fileLength());
        }
    }

    @Test
    void aFileSystemWithFallocateReservesWithIt() throws IOException
    {
        assumeTrue(Libc.available(), "Linux only");
        final Path path = dir.resolve("fallocate.ddf");
        try (FilterFile file = FilterFile.create(path, SPEC))
        {
            assumeTrue(file.reservation() != Reservation.ZERO_FILLED, "this temporary directory has no fallocate");
            assertEquals(Reservation.FALLOCATED, file.reservation());
            assertFullyAllocated(path, file.fileLength());
        }
    }

    @Test
    void anFallocateThatLeavesHolesIsFollowedByZeros() throws IOException
    {
        assumeTrue(Libc.available(), "Linux only");
        final Path path = dir.resolve("lying");
        final long length = 4L << 20;
        try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw"))
        {
            final Reservation how = Preallocator.allocate(raf, length, path, dir, (fd, bytes) ->
            {
                setLength(raf, bytes); // what the posix library does when the file system refuses: ftruncate
                return 0;
            });
            assertEquals(length, raf.length());
            assertFullyAllocated(path, length);
            assertEquals(Reservation.ZERO_FILLED, how);
        }
    }

    @Test
    void anFallocateThatRefusesIsFollowedByZeros() throws IOException
    {
        assumeTrue(Libc.available(), "Linux only");
        final Path path = dir.resolve("refusing");
        final long length = 4L << 20;
        try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw"))
        {
            assertEquals(Reservation.ZERO_FILLED,
                Preallocator.allocate(raf, length, path, dir, (fd, bytes) -> Libc.EOPNOTSUPP));
            assertEquals(length, raf.length());
        }
        assertFullyAllocated(path, length);
    }

    private static void setLength(final RandomAccessFile raf, final long length)
    {
        try
        {
            raf.setLength(length);
        }
        catch (final IOException e)
        {
            throw new IllegalStateException(e);
        }
    }

    /** Asserts that the file system holds at least {@code length} bytes of blocks for the file, as stat(1) says. */
    private static void assertFullyAllocated(final Path path, final long length) throws IOException
    {
        final Process stat = new ProcessBuilder("stat", "-c", "%b %B %s", path.toString()).redirectErrorStream(true)
            .start();
        final String out = new String(stat.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try
        {
            assertTrue(stat.waitFor(30, TimeUnit.SECONDS) && stat.exitValue() == 0, "stat failed: " + out);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        final String[] fields = out.split(" ");
        final long allocated = Long.parseLong(fields[0]) * Long.parseLong(fields[1]);
        assertEquals(length, Long.parseLong(fields[2]), path + " has the wrong length");
        assertTrue(allocated >= length, path + " is sparse: " + allocated + " bytes allocated of " + length);
    }
}
