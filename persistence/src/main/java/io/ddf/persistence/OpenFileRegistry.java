package io.ddf.persistence;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The files this JVM holds open for writing.
 *
 * <p>Why it exists: OS file locks are per process (POSIX fcntl), so {@code tryLock} cannot tell this JVM's
 * second open from its first, and closing <em>any</em> channel of a file drops every lock the process holds
 * on it. So a second open, and an {@code inspect}, must learn that this JVM holds the file before they open
 * a channel of it; this registry tells them, keyed by the file's identity, found with a stat (no open).
 */
final class OpenFileRegistry
{
    private static final ConcurrentHashMap<Object, Entry> OPEN = new ConcurrentHashMap<>();

    private OpenFileRegistry()
    {
    }

    /**
     * Claims an existing file for this JVM without opening it.
     *
     * @param path the file.
     * @return the key to pass to {@link #publish} and {@link #release}.
     * @throws FilterFileException {@code LOCKED} when this JVM holds it already.
     * @throws IOException         when the file cannot be stat'ed (e.g. {@link java.nio.file.NoSuchFileException}).
     */
    static Object claim(final Path path) throws IOException
    {
        final Object key = keyOf(path);
        final Entry holder = OPEN.putIfAbsent(key, new Entry(path));
        if (holder != null)
        {
            throw new FilterFileException(FilterFileException.Reason.LOCKED, path,
                "already open for writing in this process (as " + holder.path + "); close that first");
        }
        return key;
    }

    /**
     * Makes a claimed file's open handle visible to {@link #holder}.
     *
     * @param key  from {@link #claim}.
     * @param file the open handle.
     */
    static void publish(final Object key, final FilterFile file)
    {
        OPEN.get(key).file = file;
    }

    /**
     * @param path a file.
     * @return null when this JVM does not hold the file; else its entry, whose {@code file} is null while the
     *         handle is still being opened.
     * @throws IOException when the file cannot be stat'ed.
     */
    static Entry holder(final Path path) throws IOException
    {
        return OPEN.get(keyOf(path));
    }

    /**
     * @param key a key from {@link #claim}; null is ignored.
     */
    static void release(final Object key)
    {
        if (key != null)
        {
            OPEN.remove(key);
        }
    }

    /**
     * The file's identity: device and inode where the platform has them, so hard links and other spellings of
     * the path meet the same entry; else its real path.
     */
    private static Object keyOf(final Path path) throws IOException
    {
        final Object fileKey = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        return fileKey != null ? fileKey : path.toRealPath().toString();
    }

    /** A claimed file. */
    static final class Entry
    {
        final Path path;
        volatile FilterFile file;

        Entry(final Path path)
        {
            this.path = path;
        }
    }
}
