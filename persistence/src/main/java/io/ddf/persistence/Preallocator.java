package io.ddf.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.ddf.persistence.FilterFileException.Reason.IO;
import static io.ddf.persistence.FilterFileException.Reason.NO_SPACE;

/**
 * Reserves a file's every byte at creation.
 *
 * <p>Why: a file grown with {@code setLength} is sparse, and the first store into an unallocated page of a
 * mapping on a full disk kills the JVM with SIGBUS. Writing real zeros makes the file system allocate every
 * block now, so a full disk fails here, as an exception, and never while streaming.
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
     * Writes zeros from offset 0 to {@code length}.
     *
     * @param channel the new, empty file's channel.
     * @param length  the file's length.
     * @param path    the file, for messages.
     * @param directory where the file lives, to report free space on failure.
     */
    static void fillWithZeros(final FileChannel channel, final long length, final Path path, final Path directory)
    {
        final ByteBuffer zeros = ByteBuffer.allocateDirect(CHUNK);
        long position = 0;
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
            long usable = -1;
            try
            {
                usable = Files.getFileStore(directory).getUsableSpace();
            }
            catch (final IOException ignore)
            {
                // report without it
            }
            final boolean full = usable >= 0 && usable < length - position ||
                String.valueOf(ex.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("space");
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
