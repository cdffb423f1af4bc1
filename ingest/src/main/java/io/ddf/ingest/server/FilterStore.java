package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.Filters;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The named filters: one file per key in the data directory ({@link KeyNames}), all open while the daemon runs.
 *
 * <p>Whoever publishes an element for a filter holds the read lock from looking the filter up until the
 * publication returns; creating, deleting and closing take the write lock, so a filter is never closed while an
 * element for it may still be published (deletion also drains the pipeline of it first).
 */
final class FilterStore implements AutoCloseable
{
    /** Lock file in the data directory: one daemon per directory. */
    static final String LOCK_FILE = ".ddf-serve.lock";

    private final Path dir;
    private final FileChannel lockChannel;
    private final FileLock dirLock;
    private final Map<String, DuplicateFilter> filters = new ConcurrentHashMap<>();
    /** Keys whose file exists but is not a filter ddf can open: WRONGTYPE, never deleted. */
    private final Set<String> foreign = ConcurrentHashMap.newKeySet();
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final int skipped;
    private boolean closed;

    private FilterStore(final Path dir, final FileChannel lockChannel, final FileLock dirLock, final PrintStream log)
        throws IOException
    {
        this.dir = dir;
        this.lockChannel = lockChannel;
        this.dirLock = dirLock;
        int skip = 0;
        final List<Path> files = new ArrayList<>();
        try (Stream<Path> list = Files.list(dir))
        {
            list.sorted().forEach(files::add);
        }
        for (final Path file : files)
        {
            final String name = file.getFileName().toString();
            if (name.startsWith("."))
            {
                continue;
            }
            final String key = KeyNames.key(name);
            if (key == null)
            {
                log.println("ddf: skipping " + file + ": not a filter file name (<key>" + KeyNames.SUFFIX + ")");
                skip++;
                continue;
            }
            try
            {
                filters.put(key, Filters.open(file));
            }
            catch (final RuntimeException e)
            {
                log.println("ddf: skipping " + file + ": " + oneLine(e));
                foreign.add(key);
                skip++;
            }
        }
        this.skipped = skip;
    }

    /**
     * Opens every filter of a data directory, creating the directory if need be.
     *
     * @param dir the data directory.
     * @param log where to log a line per file skipped.
     * @return the store.
     * @throws IllegalStateException when another daemon holds the directory.
     * @throws UncheckedIOException  when the directory cannot be made or read.
     */
    static FilterStore open(final Path dir, final PrintStream log)
    {
        try
        {
            Files.createDirectories(dir);
            final FileChannel channel = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
            final FileLock lock;
            try
            {
                lock = channel.tryLock();
            }
            catch (final IOException | RuntimeException e)
            {
                channel.close();
                throw e;
            }
            if (lock == null)
            {
                channel.close();
                throw new IllegalStateException("data directory " + dir + " is in use by another ddf serve");
            }
            try
            {
                return new FilterStore(dir, channel, lock, log);
            }
            catch (final IOException | RuntimeException e)
            {
                channel.close();
                throw e;
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the read lock: hold it from lookup until the element is published. */
    Lock readLock()
    {
        return lock.readLock();
    }

    /** @return files skipped at start. */
    int skipped()
    {
        return skipped;
    }

    /** @return the data directory. */
    Path dir()
    {
        return dir;
    }

    /**
     * @param key a key.
     * @return its filter, or null; call holding the read lock.
     */
    DuplicateFilter get(final String key)
    {
        return filters.get(key);
    }

    /**
     * @param key a key.
     * @return whether a file of that name exists that is not a filter.
     */
    boolean isForeign(final String key)
    {
        return foreign.contains(key);
    }

    /** @return the number of filters. */
    int size()
    {
        return filters.size();
    }

    /** @return the filters by key, sorted; call holding the read lock. */
    Map<String, DuplicateFilter> snapshot()
    {
        return new TreeMap<>(filters);
    }

    /**
     * Looks a filter up, creating it when missing, and returns with the read lock held when it returns a filter.
     *
     * @param key      a key.
     * @param defaults makes the builder of a missing filter, or null to not create one.
     * @return the filter (read lock held), or null when missing and not created (read lock not held).
     * @throws RespError for a foreign key, a key too long or a store shutting down (read lock not held).
     */
    DuplicateFilter acquire(final String key, final java.util.function.Supplier<FilterBuilder> defaults)
    {
        while (true)
        {
            lock.readLock().lock();
            if (closed)
            {
                lock.readLock().unlock();
                throw new RespError("ERR server is shutting down");
            }
            final DuplicateFilter filter = filters.get(key);
            if (filter != null)
            {
                return filter;
            }
            lock.readLock().unlock();
            if (foreign.contains(key))
            {
                throw wrongType();
            }
            if (defaults == null)
            {
                return null;
            }
            lock.writeLock().lock();
            try
            {
                if (!closed && !filters.containsKey(key))
                {
                    create(key, defaults.get());
                }
            }
            finally
            {
                lock.writeLock().unlock();
            }
        }
    }

    /**
     * Creates a filter under a key.
     *
     * @param key     the key.
     * @param builder its parameters.
     * @throws RespError when the key exists, is foreign or too long, or the parameters are refused.
     */
    void reserve(final String key, final FilterBuilder builder)
    {
        lock.writeLock().lock();
        try
        {
            if (closed)
            {
                throw new RespError("ERR server is shutting down");
            }
            if (foreign.contains(key))
            {
                throw wrongType();
            }
            if (filters.containsKey(key))
            {
                throw new RespError("ERR item exists");
            }
            create(key, builder);
        }
        finally
        {
            lock.writeLock().unlock();
        }
    }

    private void create(final String key, final FilterBuilder builder)
    {
        final String name = KeyNames.fileName(key);
        if (name == null)
        {
            throw new RespError("ERR key is empty or too long to name a file");
        }
        try
        {
            filters.put(key, builder.file(dir.resolve(name)).create());
        }
        catch (final RuntimeException e)
        {
            throw new RespError("ERR " + oneLine(e));
        }
    }

    /**
     * Deletes a filter and its file.
     *
     * @param key   the key.
     * @param drain returns once every element published so far for the filter has been judged.
     * @return whether there was a filter.
     */
    boolean delete(final String key, final Consumer<DuplicateFilter> drain)
    {
        lock.writeLock().lock();
        try
        {
            final DuplicateFilter filter = filters.get(key);
            if (filter == null || closed)
            {
                return false;
            }
            drain.accept(filter);
            filters.remove(key);
            final Path path = filter.path();
            filter.close();
            try
            {
                Files.deleteIfExists(path);
            }
            catch (final IOException e)
            {
                throw new RespError("ERR filter closed but its file was not deleted: " + oneLine(e));
            }
            return true;
        }
        finally
        {
            lock.writeLock().unlock();
        }
    }

    /** Refuses every later lookup; returns once no publication is under way. */
    void stopPublishing()
    {
        lock.writeLock().lock();
        try
        {
            closed = true;
        }
        finally
        {
            lock.writeLock().unlock();
        }
    }

    /** Flushes and closes every filter, and releases the directory. Call after the pipeline has drained. */
    @Override
    public void close()
    {
        lock.writeLock().lock();
        try
        {
            closed = true;
            if (!lockChannel.isOpen())
            {
                return;
            }
            try
            {
                for (final DuplicateFilter filter : filters.values())
                {
                    try
                    {
                        filter.flush();
                    }
                    finally
                    {
                        filter.close();
                    }
                }
            }
            finally
            {
                filters.clear();
            }
            try
            {
                dirLock.release();
                lockChannel.close();
            }
            catch (final IOException e)
            {
                throw new UncheckedIOException(e);
            }
        }
        finally
        {
            lock.writeLock().unlock();
        }
    }

    static RespError wrongType()
    {
        return new RespError("WRONGTYPE Operation against a key holding the wrong kind of value");
    }

    static String oneLine(final Throwable e)
    {
        final String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        return message.strip().replaceAll("\\s*[\\r\\n]+\\s*", "; ");
    }
}
