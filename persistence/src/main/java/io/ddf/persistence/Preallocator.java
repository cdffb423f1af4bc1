package io.ddf.persistence;

import io.ddf.persistence.platform.Descriptors;
import io.ddf.persistence.platform.Libc;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import static io.ddf.persistence.FilterFileException.Reason.IO;
import static io.ddf.persistence.FilterFileException.Reason.NO_SPACE;

/**
 * Reserves a file's every byte at creation.
 *
 * <p>Why: a file grown with {@code setLength} is sparse, and the first store into an unallocated page of a
 * mapping on a full disk kills the JVM with SIGBUS. {@code fallocate} (or, where it is missing, writing real
 * zeros) makes the file system allocate every block now, so a full disk fails here, as an exception, and never
 * while streaming.
 */
public final class Preallocator
{
    private static final int CHUNK = 1 << 20;

    private Preallocator()
    {
    }

    /**
     * @param directory the directory the file goes in.
     * @param needed    bytes the file will take.
     * @param path      the file, for messages (null when anonymous).
     * @throws FilterFileException {@code NO_SPACE} naming the bytes needed and available.
     */
    static void checkSpace(final Path directory, final long needed, final Path path)
    {
        final long usable;
        try
        {
            usable = Files.getFileStore(directory).getUsableSpace();
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot query free space in " + directory + ": " + ex, ex);
        }
        if (needed > usable)
        {
            throw noSpace(path, needed, usable, directory, null);
        }
    }

    /**
     * Allocates every block of a new, empty file: {@code fallocate(2)} where the platform and file system offer
     * it (blocks reserved without writing them: no data goes to the device until the pages are written back), else
     * zeros written through the descriptor. Either way a full disk fails here, and no later store into the mapping
     * can find a hole. Where the file system can say (Linux), what it allocated is checked afterwards: an
     * fallocate that "succeeded" without allocating (the posix library's falls back to {@code ftruncate} and says
     * nothing, issue 24) is followed by zeros.
     *
     * @param raf       the new file, empty.
     * @param length    the file's length.
     * @param path      the file, for messages.
     * @param directory where the file lives, to report free space on failure.
     * @return how the blocks were reserved.
     */
    static Reservation allocate(final RandomAccessFile raf, final long length, final Path path, final Path directory)
    {
        return allocate(raf, length, path, directory, Libc::fallocate);
    }

    /**
     * {@link #allocate(RandomAccessFile, long, Path, Path)} with a given fallocate, so that tests can make one
     * refuse or lie.
     */
    static Reservation allocate(final RandomAccessFile raf, final long length, final Path path, final Path directory,
        final Fallocate fallocate)
    {
        final int fd = Libc.available() ? Descriptors.of(raf) : -1;
        if (fd >= 0)
        {
            final int errno = fallocate.allocate(fd, length);
            if (errno == Libc.ENOSPC)
            {
                throw noSpace(path, length, usableOrUnknown(directory), directory, null);
            }
            if (errno == 0 && !provablySparse(fd, length))
            {
                return Reservation.FALLOCATED;
            }
            // EOPNOTSUPP and the like (this file system cannot), or blocks missing after a success: write zeros
        }
        fillWithZeros(raf.getChannel(), length, path, directory);
        return fd >= 0 && provablySparse(fd, length) ? Reservation.UNRESERVED : Reservation.ZERO_FILLED;
    }

    /**
     * Allocates the blocks of {@code [from, length)} of a file that holds data before {@code from} (a file that
     * grows): as {@link #allocate(RandomAccessFile, long, Path, Path)}, never touching what lies before.
     *
     * @param raf       the file.
     * @param from      the first byte to allocate (the file's old length).
     * @param length    the file's new length.
     * @param path      the file, for messages.
     * @param directory where the file lives, to report free space on failure.
     */
    public static void allocate(final RandomAccessFile raf, final long from, final long length, final Path path,
        final Path directory)
    {
        final int fd = Libc.available() ? Descriptors.of(raf) : -1;
        if (fd >= 0)
        {
            final int errno = Libc.fallocate(fd, from, length - from);
            if (errno == Libc.ENOSPC)
            {
                throw noSpace(path, length - from, usableOrUnknown(directory), directory, null);
            }
            if (errno == 0 && !provablySparse(fd, length))
            {
                return;
            }
            // as for a new file: this file system cannot, or the blocks are missing after a success
        }
        fillWithZeros(raf.getChannel(), from, length, path, directory);
    }

    /** @return whether the file system says it holds fewer blocks for the file than its length needs. */
    private static boolean provablySparse(final int fd, final long length)
    {
        final long allocated = Libc.allocatedBytes(fd, length);
        return allocated >= 0 && allocated < length;
    }

    /** fallocate(2) of a whole new file. */
    @FunctionalInterface
    interface Fallocate
    {
        /**
         * @param fd     the file's descriptor.
         * @param length bytes to allocate from offset 0.
         * @return 0, or the errno of the failure.
         */
        int allocate(int fd, long length);
    }

    private static long usableOrUnknown(final Path directory)
    {
        try
        {
            return Files.getFileStore(directory).getUsableSpace();
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    /**
     * Writes zeros from offset 0 to {@code length}.
     *
     * @param channel the new, empty file's channel.
     * @param length  the file's length.
     * @param path    the file, for messages.
     * @param directory where the file lives, to report free space on failure.
     */
    static void fillWithZeros(final FileChannel channel, final long length, final Path path, final Path directory)
    {
        fillWithZeros(channel, 0, length, path, directory);
    }

    /**
     * Writes zeros from offset {@code from} to {@code length}.
     *
     * @param channel   the file's channel.
     * @param from      the first byte to write.
     * @param length    the file's length.
     * @param path      the file, for messages.
     * @param directory where the file lives, to report free space on failure.
     */
    static void fillWithZeros(final FileChannel channel, final long from, final long length, final Path path,
        final Path directory)
    {
        final ByteBuffer zeros = ByteBuffer.allocateDirect(CHUNK);
        long position = from;
        try
        {
            while (position < length)
            {
                zeros.clear().limit((int)Math.min(CHUNK, length - position));
                while (zeros.hasRemaining())
                {
                    position += channel.write(zeros, position);
                }
            }
        }
        catch (final IOException ex)
        {
            // ENOSPC (or a quota) after the free-space check: someone else took the space meanwhile.
            final long usable = usableOrUnknown(directory);
            final boolean full = usable >= 0 && usable < length - position ||
                String.valueOf(ex.getMessage()).toLowerCase(Locale.ROOT).contains("space");
            if (!full)
            {
                throw new FilterFileException(IO, path, "cannot reserve the file: " + ex, ex);
            }
            throw noSpace(path, length, usable, directory, ex);
        }
    }

    private static FilterFileException noSpace(
        final Path path, final long needed, final long usable, final Path directory, final IOException cause)
    {
        final String message = "not enough space to reserve the file: needs " + needed + " bytes, " +
            (usable >= 0 ? usable + " bytes available" : "free space unknown") + " in " + directory +
            (cause == null ? "" : " (" + cause.getMessage() + ")");
        return new FilterFileException(NO_SPACE, path, message, cause);
    }
}
