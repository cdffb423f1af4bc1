package io.ddf.persistence;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Names of files under construction, and their removal once their creator is gone.
 *
 * <p>{@link FilterFile#create} writes a new file under a temporary name in the target's directory and renames it
 * into place only when complete, so a filter file's name never points at a partial file. A crash (kill -9, power
 * loss) during creation leaves the temporary file behind; {@link #remove} deletes such files. A temporary file
 * whose creator is still at work is locked by it (the OS lock every {@link FilterFile} holds), and is left alone.
 */
public final class Leftovers
{
    /** Every temporary name starts with this: hidden, and no key maps to it (keys name {@code <key>.ddf}). */
    public static final String PREFIX = ".ddf-creating-";

    private Leftovers()
    {
    }

    /**
     * @param target the file being created.
     * @return a fresh temporary name beside it.
     */
    static Path temporaryFor(final Path target)
    {
        final String random = Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
        final String name = PREFIX + random + "-" + target.getFileName();
        // File names are limited (255 bytes on most file systems): keep the random part, cut the target's name.
        final String bounded = name.length() > 200 ? name.substring(0, 200) : name;
        return target.toAbsolutePath().getParent().resolve(bounded);
    }

    /**
     * @param path a path.
     * @return whether its name is a temporary name of a file under construction.
     */
    public static boolean isTemporary(final Path path)
    {
        final Path name = path.getFileName();
        return name != null && name.toString().startsWith(PREFIX);
    }

    /**
     * Deletes the temporary files of creations that did not finish. A file another process is still creating
     * (it holds the lock) or this process is creating is kept.
     *
     * @param directory a directory filter files are created in.
     * @return the files deleted.
     * @throws IOException when the directory cannot be listed.
     */
    public static List<Path> remove(final Path directory) throws IOException
    {
        final List<Path> removed = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, PREFIX + "*"))
        {
            for (final Path entry : entries)
            {
                if (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS) && removeIfAbandoned(entry))
                {
                    removed.add(entry);
                }
            }
        }
        return removed;
    }

    private static boolean removeIfAbandoned(final Path entry) throws IOException
    {
        try
        {
            if (OpenFileRegistry.holder(entry) != null)
            {
                return false; // this process is creating it; opening a channel would drop its lock
            }
            try (FileChannel channel = FileChannel.open(entry, StandardOpenOption.WRITE))
            {
                final FileLock lock = channel.tryLock();
                if (lock == null)
                {
                    return false; // another process is creating it
                }
                Files.delete(entry);
                return true;
            }
        }
        catch (final NoSuchFileException | OverlappingFileLockException gone)
        {
            return false; // renamed into place or removed meanwhile, or held by this process under another name
        }
    }
}
