package io.ddf.ingest.store;

import io.ddf.engine.Filters;
import io.ddf.engine.SyncPolicy;
import io.ddf.ingest.durability.Durability;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.Recovery;
import io.ddf.engine.scaling.BloomChain;
import io.ddf.engine.scaling.ChainFile;
import io.ddf.engine.scaling.RedisCuckoo;
import io.ddf.engine.scaling.ScalingFilter;
import io.ddf.persistence.FilterFileException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * The daemon's scaling filters by key: Bloom chains and RedisBloom cuckoo filters, each a growing file in the data
 * directory named {@code <key's file name>} + {@link #SUFFIX}, reopened at start. Commands use a filter under the
 * registry's read lock ({@link #use}); deleting and closing take the write lock, so a filter is never unmapped under
 * a command that reads it (which would fault, not fail).
 *
 * <p>Durability: under {@code always} and {@code everysec} each filter is written through the data directory's change
 * log ({@link ScalingFilter#logTo}, issue 31: its open decides whether to replay the log; {@link Durability} forces
 * the log and checkpoints it). Without a log ({@code --fsync no}, or a registry of tests) a filter keeps the file's
 * own policy: under {@code everysec} it joins the engine's once-a-second sync cycle ({@link Filters#syncEverySecond}),
 * which forces it when it changed; it leaves the cycle before it is closed.
 */
public final class ScalingRegistry implements AutoCloseable
{
    /** How a scaling Bloom filter made here is hashed and laid out. */
    public enum Layout
    {
        /** ddf's chain: XXH3, RedisBloom's capacities and error rates per layer, blocked layers. */
        DDF,
        /** RedisBloom's own: MurmurHash, its bit arrays, bit for bit. */
        REDISBLOOM
    }

    /** What a scaling filter's file name ends with, after the key's file name ({@code <key>.ddf}). */
    public static final String SUFFIX = "s";

    private final Path dir;
    private final Function<String, String> fileName;
    private final Map<String, ScalingFilter> filters = new ConcurrentHashMap<>();
    private final Map<String, String> failed = new ConcurrentHashMap<>();
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final boolean everySecond;
    /** serve --fsync's log and checkpoints, or null (a registry of tests, without a daemon). */
    private final Durability durability;
    private boolean closed;

    /**
     * @param dir      the data directory.
     * @param fileName a key's file name (null when the key cannot name a file); the registry's files add
     *                 {@link #SUFFIX}.
     * @param policy   the filters' sync policy: {@link SyncPolicy#EVERYSEC} syncs them once a second; the others
     *                 leave it to the caller ({@link ScalingFilter#sync()}) or to the kernel.
     */
    public ScalingRegistry(final Path dir, final Function<String, String> fileName, final SyncPolicy policy)
    {
        this.dir = dir;
        this.fileName = fileName;
        this.everySecond = policy == SyncPolicy.EVERYSEC;
        this.durability = null;
    }

    /**
     * @param dir        the data directory.
     * @param fileName   as {@link #ScalingRegistry(Path, Function, SyncPolicy)}.
     * @param durability serve --fsync: the change log the filters are written through (none under {@code no}), and
     *                   the file policy of those that are not.
     */
    public ScalingRegistry(final Path dir, final Function<String, String> fileName, final Durability durability)
    {
        this.dir = dir;
        this.fileName = fileName;
        this.everySecond = durability.filePolicy() == SyncPolicy.EVERYSEC;
        this.durability = durability;
    }

    /**
     * Before a filter takes a write: writes it through the data directory's log when there is one (its open's
     * decision and replay, said per filter), else syncs it by the file policy.
     *
     * @param key    its key.
     * @param filter the filter, just opened or made.
     * @param made   whether it was made now (nothing to decide or replay).
     */
    private void attach(final String key, final ScalingFilter filter, final boolean made)
    {
        final ChangeLog changeLog = durability == null ? null : durability.changeLog();
        if (changeLog != null)
        {
            final Recovery recovery = filter.logTo(changeLog);
            if (made)
            {
                durability.created(key, filter);
            }
            else
            {
                durability.opened(key, filter.path(), filter, recovery);
            }
            return;
        }
        if (durability != null)
        {
            durability.unlogged(key, filter::sync); // --fsync no with live tables: forced at each round
        }
        track(filter);
    }

    private void track(final ScalingFilter filter)
    {
        if (everySecond)
        {
            Filters.syncEverySecond(filter);
        }
    }

    /**
     * Opens the scaling filters of the data directory, at most {@code budget} of them (each holds a descriptor); a
     * file beyond that, or one that cannot be opened, answers its commands with why until DEL deletes it.
     *
     * @param keyOf  a file name's key, or null when it names no key (the inverse of the key-to-name function, given
     *               the name without {@link #SUFFIX}).
     * @param budget the most filters to open.
     * @param log    where a file that cannot be opened is reported.
     * @throws IOException when the directory cannot be listed.
     */
    public void openAll(final Function<String, String> keyOf, final int budget, final PrintStream log)
        throws IOException
    {
        try (var list = Files.list(dir))
        {
            for (final Path file : list.sorted().toList())
            {
                final String name = file.getFileName().toString();
                if (name.startsWith(".") || !name.endsWith(SUFFIX))
                {
                    continue;
                }
                final String key = keyOf.apply(name.substring(0, name.length() - SUFFIX.length()));
                if (key == null)
                {
                    continue;
                }
                if (filters.size() >= budget)
                {
                    failed.put(key, file + ": not opened: --max-filters reached");
                    log.println("ddf: cannot open " + file + ": --max-filters reached; commands on it answer this " +
                        "until DEL deletes the file");
                    continue;
                }
                ScalingFilter filter = null;
                try
                {
                    filter = open(file);
                    attach(key, filter, false);
                    filters.put(key, filter);
                }
                catch (final FilterFileException ex)
                {
                    if (filter != null)
                    {
                        closeQuietly(filter); // its replay found it wrong: refused by name, as at open
                    }
                    failed.put(key, ex.getMessage());
                    log.println("ddf: cannot open " + file + ": " + ex.getMessage());
                }
            }
        }
    }

    private static ScalingFilter open(final Path file)
    {
        return ChainFile.familyOf(file) == RedisCuckoo.FAMILY ? RedisCuckoo.open(file) : BloomChain.open(file);
    }

    /** What a command does with a key's filter, under the registry's read lock. */
    @FunctionalInterface
    public interface Use<T>
    {
        /**
         * @param filter the key's filter, or null when it has none.
         * @return the command's answer.
         */
        T apply(ScalingFilter filter);
    }

    /**
     * Runs {@code use} with the key's filter, which stays open meanwhile.
     *
     * @param key a key.
     * @param use what to do.
     * @param <T> its answer's type.
     * @return its answer.
     * @throws IllegalStateException naming the reason when the key's file could not be opened, or when the
     *                               registry is closed.
     */
    public <T> T use(final String key, final Use<T> use)
    {
        lock.readLock().lock();
        try
        {
            if (closed)
            {
                throw new IllegalStateException("ERR the server is shutting down");
            }
            return use.apply(get(key));
        }
        finally
        {
            lock.readLock().unlock();
        }
    }

    /**
     * The allocation-free form of {@link #use} for the daemon's hot commands: takes the read lock and answers the
     * key's filter, which stays open until {@link #release()}. Call {@code release()} in a finally block, on the
     * same thread, whatever this answers or throws.
     *
     * @param key a key.
     * @return its filter, or null when it has none.
     * @throws IllegalStateException as {@link #use} (the lock is still held: release it).
     */
    public ScalingFilter acquire(final String key)
    {
        lock.readLock().lock();
        if (closed)
        {
            throw new IllegalStateException("ERR the server is shutting down");
        }
        return get(key);
    }

    /** Releases what {@link #acquire} took. */
    public void release()
    {
        lock.readLock().unlock();
    }

    private ScalingFilter get(final String key)
    {
        final ScalingFilter filter = filters.get(key);
        if (filter == null && failed.containsKey(key))
        {
            throw new IllegalStateException("ERR " + key + ": " + failed.get(key));
        }
        return filter;
    }

    /** @return whether the key has a scaling filter (or a file that failed to open). */
    public boolean has(final String key)
    {
        return filters.containsKey(key) || failed.containsKey(key);
    }

    /** @return the keys, sorted. */
    public SortedSet<String> keys()
    {
        final SortedSet<String> keys = new TreeSet<>(filters.keySet());
        keys.addAll(failed.keySet());
        return keys;
    }

    /** @return the number of keys (filters and files that failed to open). */
    public int size()
    {
        return filters.size() + failed.size();
    }

    /** @return the filters open (each holds a file descriptor). */
    public int openCount()
    {
        return filters.size();
    }

    private Path path(final String key)
    {
        final String name = fileName.apply(key);
        if (name == null)
        {
            throw new IllegalArgumentException("ERR key too long (or empty) to name a file");
        }
        return dir.resolve(name + SUFFIX);
    }

    /** What makes a filter, given its file. */
    @FunctionalInterface
    public interface Maker
    {
        /**
         * @param file the file to create.
         * @return the filter, open.
         */
        ScalingFilter make(Path file);
    }

    /**
     * Makes a key's filter: the file is made without the lock (commands on other keys go on meanwhile), then added
     * under the write lock. Call from one thread at a time (the daemon's creation thread), so that two creations of
     * one key never race; a key that has a filter (or a file that failed to open) is refused.
     *
     * @param key   a key without a filter.
     * @param maker makes its filter.
     * @return the filter made.
     * @throws IllegalStateException {@code ERR item exists} when the key has one already, or when the registry is
     *                               closed (the file just made is closed and deleted).
     */
    public ScalingFilter create(final String key, final Maker maker)
    {
        if (has(key))
        {
            throw new IllegalStateException("ERR item exists");
        }
        final Path path = path(key);
        final ScalingFilter filter = maker.make(path);
        lock.writeLock().lock();
        try
        {
            if (!closed && !has(key))
            {
                attach(key, filter, true);
                filters.put(key, filter);
                return filter;
            }
        }
        finally
        {
            lock.writeLock().unlock();
        }
        closeQuietly(filter);
        try
        {
            io.ddf.persistence.LivePlacement.delete(path);
        }
        catch (final IOException ignored)
        {
            // the file is a complete, empty filter: the next start opens it
        }
        throw new IllegalStateException(closed ? "ERR the server is shutting down" : "ERR item exists");
    }

    /**
     * Closes and deletes a key's filter and file, once no command uses it.
     *
     * @param key a key.
     * @return whether it had one.
     */
    public boolean delete(final String key)
    {
        lock.writeLock().lock();
        try
        {
            return deleteLocked(key);
        }
        finally
        {
            lock.writeLock().unlock();
        }
    }

    private boolean deleteLocked(final String key)
    {
        final ScalingFilter filter = filters.remove(key);
        final boolean hadFailed = failed.remove(key) != null;
        if (filter == null && !hadFailed)
        {
            return false;
        }
        if (filter != null)
        {
            if (durability != null)
            {
                durability.removed(key);
            }
            closeQuietly(filter);
        }
        try
        {
            io.ddf.persistence.LivePlacement.delete(path(key));
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("ERR cannot delete the file of " + key + ": " + ex.getMessage(), ex);
        }
        return true;
    }

    /** Deletes every filter (FLUSHALL). */
    public void deleteAll()
    {
        lock.writeLock().lock();
        try
        {
            for (final String key : keys())
            {
                deleteLocked(key);
            }
        }
        finally
        {
            lock.writeLock().unlock();
        }
    }

    /** Forces every filter's file to the device. */
    public void flushAll()
    {
        lock.readLock().lock();
        try
        {
            for (final ScalingFilter filter : filters.values())
            {
                filter.flush();
            }
        }
        finally
        {
            lock.readLock().unlock();
        }
    }

    /**
     * @param key a key.
     * @return the bytes of its filter's file (all of it mapped), or -1 when it has none.
     */
    public long bytes(final String key)
    {
        lock.readLock().lock();
        try
        {
            final ScalingFilter filter = closed ? null : filters.get(key);
            return filter == null ? -1 : filter.fileBytes();
        }
        finally
        {
            lock.readLock().unlock();
        }
    }

    /** @return the bytes of every filter's file. */
    public long bytes()
    {
        final long[] bytes = new long[1];
        forEach((key, filter) -> bytes[0] += filter.fileBytes());
        return bytes[0];
    }

    /**
     * Visits every open filter under the read lock (for INFO and the metrics).
     *
     * @param visit told each key and filter.
     */
    public void forEach(final java.util.function.BiConsumer<String, ScalingFilter> visit)
    {
        lock.readLock().lock();
        try
        {
            if (!closed)
            {
                filters.forEach(visit);
            }
        }
        finally
        {
            lock.readLock().unlock();
        }
    }

    private static void closeQuietly(final ScalingFilter filter)
    {
        Filters.stopSyncing(filter);
        try
        {
            filter.close();
        }
        catch (final RuntimeException ignored)
        {
            // the file stays consistent: every change is in the mapping already
        }
    }

    /** Forces every filter to the device, then unmaps it (SIGTERM's "flushed and closed"). */
    @Override
    public void close()
    {
        lock.writeLock().lock();
        try
        {
            closed = true;
            for (final ScalingFilter filter : filters.values())
            {
                try
                {
                    filter.flush();
                }
                catch (final RuntimeException ex)
                {
                    // closing goes on: every change is in the page cache, which the kernel writes back
                }
                closeQuietly(filter);
            }
            filters.clear();
        }
        finally
        {
            lock.writeLock().unlock();
        }
    }
}
