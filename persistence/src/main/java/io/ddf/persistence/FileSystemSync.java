package io.ddf.persistence;

import com.sun.jna.Library;
import com.sun.jna.Native;
import net.openhft.posix.OpenFlag;
import net.openhft.posix.PosixAPI;

import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code syncfs(2)}: writes back every dirty page of one file system and waits, in one call.
 *
 * <p>Why: forcing many files one at a time costs a device flush each (issue 13: 18,000 filters took 24.9 s to
 * stop, 124 s on a slower disk, though each had one changed page); one {@code syncfs} costs what the dirty data
 * costs. Linux only (through JNA, which Chronicle's posix library brings); elsewhere {@link #sync} says it did
 * nothing and the caller forces each file.
 */
final class FileSystemSync
{
    private static final LibC LIBC = load();

    private FileSystemSync()
    {
    }

    /** The one libc function needed. */
    interface LibC extends Library
    {
        /**
         * @param fd any descriptor on the file system.
         * @return 0, or -1 with errno set.
         */
        int syncfs(int fd);
    }

    private static LibC load()
    {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux"))
        {
            return null;
        }
        try
        {
            return Native.load("c", LibC.class);
        }
        catch (final LinkageError | RuntimeException unavailable)
        {
            return null;
        }
    }

    /**
     * @param directory a directory on the file system to write back.
     * @return true once the file system's dirty data is on the device; false when syncfs is unavailable here.
     * @throws FilterFileException {@code IO} when syncfs fails.
     */
    static boolean sync(final Path directory)
    {
        if (LIBC == null)
        {
            return false;
        }
        final PosixAPI posix = PosixAPI.posix();
        final int fd = posix.open(directory.toString(), OpenFlag.O_RDONLY, 0);
        if (fd < 0)
        {
            return false;
        }
        try
        {
            if (LIBC.syncfs(fd) != 0)
            {
                throw new FilterFileException(FilterFileException.Reason.IO, directory,
                    "syncfs failed: " + posix.lastErrorStr());
            }
            return true;
        }
        finally
        {
            posix.close(fd);
        }
    }
}
