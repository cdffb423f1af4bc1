package io.ddf.persistence;

import java.io.IOException;
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
final class Preallocator
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
     * can find a hole.
     *
     * @param raf       the new file, empty.
     * @param length    the file's length.
     * @param path      the file, for messages.
     * @param directory where the file lives, to report free space on failure.
     */
    static void allocate(final java.io.RandomAccessFile raf, final long length, final Path path, final Path directory)
    {
        allocate(raf, 0, length, path, directory);
    }

    /**
     * Allocates the blocks of {@code [from, length)} of a file that holds data before {@code from} (a file that
     * grows): as {@link #allocate(java.io.RandomAccessFile, long, Path, Path)}, never touching what lies before.
     *
     * @param raf       the file.
     * @param from      the first byte to allocate (the file's old length).
     * @param length    the file's new length.
     * @param path      the file, for messages.
     * @param directory where the file lives, to report free space on failure.
     */
    static void allocate(final java.io.RandomAccessFile raf, final long from, final long length, final Path path,
        final Path directory)
    {
        final int fd = descriptorOf(raf);
        if (fd >= 0)
        {
            final net.openhft.posix.PosixAPI posix = net.openhft.posix.PosixAPI.posix();
            if (posix.fallocate(fd, 0, from, length - from) == 0)
            {
                return;
            }
            if (posix.lastError() == ENOSPC)
            {
                throw noSpace(path, length, usableOrUnknown(directory), directory, null);
            }
            // EOPNOTSUPP and the like: this file system cannot; write zeros instead
        }
        fillWithZeros(raf.getChannel(), from, length, path, directory);
    }

    private static final int ENOSPC = 28;

    /** @return the descriptor number (java.io is opened to this code by the JVM flags Chronicle needs), or -1. */
    static int descriptorOf(final java.io.RandomAccessFile raf)
    {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux"))
        {
            return -1;
        }
        try
        {
            final java.lang.reflect.Field fd = java.io.FileDescriptor.class.getDeclaredField("fd");
            fd.setAccessible(true);
            return fd.getInt(raf.getFD());
        }
        catch (final ReflectiveOperationException | RuntimeException | IOException unavailable)
        {
            return -1;
        }
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

    private static void fillWithZeros(final FileChannel channel, final long from, final long length, final Path path,
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
