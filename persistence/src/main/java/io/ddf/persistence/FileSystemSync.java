package io.ddf.persistence;

import io.ddf.persistence.platform.Libc;
import net.openhft.posix.OpenFlag;
import net.openhft.posix.PosixAPI;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code syncfs(2)}: writes back every dirty page of one file system and waits, in one call.
 *
 * <p>Why: forcing many files one at a time costs a device flush each (issue 13: 18,000 filters took 24.9 s to
 * stop, 124 s on a slower disk, though each had one changed page); one {@code syncfs} costs what the dirty data
 * costs. Linux only (through JNA, which Chronicle's posix library brings); elsewhere {@link #sync} says it did
 * nothing and the caller forces each file.
 *
 * <p>Not on FUSE: there syncfs writes the dirty pages to the file system's process and returns without asking it to
 * make anything durable (the kernel sends no FSYNC; issue 24, seen with the power-cut file system: a clean shutdown
 * lost every change at the next cut). {@link #sync} says it did nothing, so the caller forces each file (msync and
 * fsync reach a FUSE file system as WRITE then FSYNC).
 */
final class FileSystemSync
{
    private FileSystemSync()
    {
    }

    private static boolean onFuse(final Path directory)
    {
        try
        {
            return Files.getFileStore(directory).type().startsWith("fuse"); // fuse, fuse.sshfs, fuseblk
        }
        catch (final IOException e)
        {
            return true; // unknown: the per-file way is right everywhere
        }
    }

    /**
     * @param directory a directory on the file system to write back.
     * @return true once the file system's dirty data is on the device; false when syncfs is unavailable here or
     *         cannot be trusted (FUSE).
     * @throws FilterFileException {@code IO} when syncfs fails.
     */
    static boolean sync(final Path directory)
    {
        if (!Libc.available() || onFuse(directory))
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
            final int errno = Libc.syncfs(fd);
            if (errno != 0)
            {
                throw new FilterFileException(FilterFileException.Reason.IO, directory,
                    "syncfs failed: " + posix.strerror(errno));
            }
            return true;
        }
        finally
        {
            posix.close(fd);
        }
    }
}
