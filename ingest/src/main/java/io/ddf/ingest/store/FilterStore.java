package io.ddf.ingest.store;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.Filters;
import io.ddf.ingest.durability.Durability;
import io.ddf.ingest.log.OneLine;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The named filters while the daemon runs, the daemon's keyspace: ddf's fixed-size filters, one file per key in the
 * {@link DataDirectory} ({@link KeyNames}), all open, each with its {@link Lease}; the keys whose file could not be
 * opened, with why; and the filters that grow ({@link ScalingRegistry}: RedisBloom's semantics, files
 * {@code <key>.ddfs}). Every key is of one {@link Kind}; both count against {@code --max-filters}, both are made on
 * the store's creation thread, never on an event loop.
 *
 * <p>Whoever publishes an element for a filter holds a {@link Lease} (the read lock) from looking the filter up
 * until the publication returns; adding a created filter, deleting and closing take the write lock, so a filter
 * is never closed while an element for it may still be published (deletion also drains the pipeline of it
 * first). Files are created on a thread of their own ({@link #create}), never under the write lock.
 */
public final class FilterStore implements AutoCloseable
{
    private final DataDirectory directory;
    private final Path dir;
    private final Map<String, DuplicateFilter> filters = new ConcurrentHashMap<>();
    /**
     * A lease per filter, made when the filter is added: a lease holds nothing but its filter (the read lock is the
     * store's), so one instance serves every acquisition and a command allocates none. Changed with
     * {@link #filters}, under the write lock.
     */
    private final Map<String, Lease> leases = new ConcurrentHashMap<>();
    /**
     * Keys whose file exists but could not be opened (foreign, corrupt, truncated, failing its checksum or structure
     * check, beyond --max-filters), with the reason: their commands answer it, and DEL deletes the file.
     */
    private final Map<String, String> failed = new ConcurrentHashMap<>();
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    /** Makes every filter file, off the event loops (see {@link #create}). */
    private final FilterCreator creator;
    /** The filters that grow, under their own lock (their commands read them through it). */
    private final ScalingRegistry scaling;
    private final int skipped;
    private final int maxFilters;
    /** Gets a line per filter created, deleted or refused ({@link FilterEvents}). */
    private final PrintStream log;
    private boolean closed;
    /** serve --fsync: the policy filters are made with, and what start-up found of each. */
    private final Durability durability;
    /** Whether {@link #close()} closes {@link #durability} too (a store opened without a daemon's). */
    private boolean ownsDurability;
    /** The wall clock of the filters with a window of time, or null for the engine's (tests). */
    private final java.time.InstantSource clock;

    private FilterStore(final DataDirectory directory, final DataDirectory.Contents contents, final int maxFilters,
        final PrintStream log, final Durability durability, final java.time.InstantSource clock)
    {
        this.durability = durability;
        this.clock = clock;
        this.directory = directory;
        this.dir = directory.path();
        this.maxFilters = maxFilters;
        this.log = log;
        this.creator = new FilterCreator(log);
        contents.filters().forEach(durability::opened);
        contents.filters().forEach(this::add);
        failed.putAll(contents.failed());
        this.skipped = contents.skipped();
        this.scaling = new ScalingRegistry(dir, KeyNames::fileName, durability);
        try
        {
            scaling.openAll(KeyNames::key, maxFilters - filters.size(), log);
        }
        catch (final IOException e)
        {
            scaling.close();
            Filters.closeAll(filters.values());
            throw new UncheckedIOException(e);
        }
    }

    /** Which store a key is in. */
    public enum Kind
    {
        /** A fixed-size ddf filter, or a {@code .ddf} file that could not be opened. */
        FIXED,
        /** A filter that grows ({@link ScalingRegistry}), or a {@code .ddfs} file that could not be opened. */
        SCALING,
        /** No such key. */
        NONE
    }

    /**
     * Opens every filter of a data directory, creating the directory if need be.
     *
     * @param dir        the data directory.
     * @param maxFilters the most filters open at once (--max-filters).
     * @param log        where to log a line per file skipped.
     * @return the store.
     * @throws IllegalStateException when another daemon holds the directory.
     * @throws UncheckedIOException  when the directory cannot be made or read.
     */
    public static FilterStore open(final Path dir, final int maxFilters, final PrintStream log)
    {
        final Durability own = new Durability(Durability.Options.of(io.ddf.engine.SyncPolicy.DEFAULT), log);
        final FilterStore store = open(dir, maxFilters, false, log, own, null);
        store.ownsDurability = true; // no daemon forces its log: the filters' seals at close do
        return store;
    }

    /** @return serve --fsync's policy, and what start-up found. */
    public Durability durability()
    {
        return durability;
    }

    /**
     * Opens every filter of a data directory, creating the directory if need be.
     *
     * @param dir        the data directory.
     * @param maxFilters the most filters open at once (--max-filters).
     * @param derived    whether {@code maxFilters} was derived from the descriptor limit (one per filter): then halved
     *                   when the tables are live ({@code --live-dir}), where each filter holds two (its file's, which
     *                   keeps the lock, and its live copy's, which maps it).
     * @param log        where to log a line per file skipped, per file not closed cleanly, and per filter with a
     *                   window of time (what expired while the daemon was stopped).
     * @param durability serve --fsync.
     * @param clock      the wall clock of the filters with a window of time, those opened and those made, or null
     *                   for the engine's.
     * @return the store.
     */
    public static FilterStore open(final Path dir, final int maxFilters, final boolean derived, final PrintStream log,
        final Durability durability, final java.time.InstantSource clock)
    {
        final DataDirectory directory = DataDirectory.lock(dir, log);
        try
        {
            // the log before any filter: each is opened through it (its open decides whether to replay it)
            final io.ddf.persistence.log.ChangeLog changeLog = durability.openLog(directory.path());
            final int limit = derived && durability.tablesLive() ? Math.max(1, maxFilters / 2) : maxFilters;
            return new FilterStore(directory, directory.open(limit, log, durability.filePolicy(), changeLog,
                clock), limit, log, durability, clock);
        }
        catch (final RuntimeException e)
        {
            durability.close();
            directory.close();
            throw e;
        }
    }

    /**
     * A filter held for publication: while a lease is open the filter is neither closed nor deleted. Close it
     * (try-with-resources) once the elements are published; on the thread that acquired it.
     */
    public final class Lease implements AutoCloseable
    {
        private final DuplicateFilter filter;

        private Lease(final DuplicateFilter filter)
        {
            this.filter = filter;
        }

        /** @return the filter, or null for a lease on the whole store ({@link #leaseAll()}). */
        public DuplicateFilter filter()
        {
            return filter;
        }

        @Override
        public void close()
        {
            lock.readLock().unlock();
        }
    }

    /** @return the filters that grow. */
    public ScalingRegistry scaling()
    {
        return scaling;
    }

    /**
     * @param key a key.
     * @return which store holds it.
     */
    public Kind kind(final String key)
    {
        return filters.containsKey(key) || failed.containsKey(key) ? Kind.FIXED :
            scaling.has(key) ? Kind.SCALING : Kind.NONE;
    }

    /** @return files skipped at start. */
    public int skipped()
    {
        return skipped;
    }

    /** @return the data directory. */
    public Path dir()
    {
        return dir;
    }

    /**
     * @param key a key.
     * @return its filter, or null; call holding the read lock.
     */
    public DuplicateFilter get(final String key)
    {
        return filters.get(key);
    }

    /**
     * @param key a key.
     * @return whether a file of that name exists that is not a filter this daemon could open.
     */
    boolean isForeign(final String key)
    {
        return failed.containsKey(key);
    }

    /** @return the number of keys (DBSIZE): filters of both kinds and the files that could not be opened. */
    public int size()
    {
        return filters.size() + failed.size() + scaling.size();
    }

    /** @return the filters open, of both kinds: what {@code --max-filters} bounds. */
    public int openCount()
    {
        return filters.size() + scaling.openCount();
    }

    /** @return every key with a file: the filters of both kinds and the files that could not be opened, sorted. */
    public java.util.SortedSet<String> keys()
    {
        final java.util.SortedSet<String> keys = new java.util.TreeSet<>(filters.keySet());
        keys.addAll(failed.keySet());
        keys.addAll(scaling.keys());
        return keys;
    }

    /** @return the filters by key, sorted; call holding the read lock. */
    public Map<String, DuplicateFilter> snapshot()
    {
        return new TreeMap<>(filters);
    }

    /**
     * Looks a filter up and holds it for publication.
     *
     * @param key a key.
     * @return a lease on its filter (close it), or null when there is none: {@link #create} makes one.
     * @throws FilterStoreException for a key whose file could not be opened (naming it and why) or a store shutting
     *                              down.
     */
    public Lease acquire(final String key)
    {
        lock.readLock().lock();
        if (closed)
        {
            lock.readLock().unlock();
            throw shuttingDown();
        }
        final Lease lease = leases.get(key);
        if (lease != null)
        {
            return lease;
        }
        lock.readLock().unlock();
        final String reason = failed.get(key);
        if (reason != null)
        {
            throw failedError(key, reason);
        }
        return null;
    }

    /** Adds a filter and its lease (at start, or under the write lock). */
    private void add(final String key, final DuplicateFilter filter)
    {
        filters.put(key, filter);
        leases.put(key, new Lease(filter));
    }

    /** @return a lease on the whole store: no filter is created, deleted or closed while it is open. */
    public Lease leaseAll()
    {
        lock.readLock().lock();
        return new Lease(null);
    }

    /**
     * Creates a filter under a key on the store's creation thread, never on the caller's: zero-filling and
     * syncing a large file takes long, and the caller is an event loop serving other clients. The file is made
     * without any lock held; only putting it in the map takes the write lock, for a moment. One thread creates
     * every filter, so two creations of one key never race.
     *
     * @param key       the key.
     * @param builder   makes the builder of its parameters (on the creation thread).
     * @param exclusive fail with {@code ERR item exists} when the key exists (BF.RESERVE); otherwise an
     *                  existing filter is success (create on first use).
     * @return completes once the filter is in the store, or exceptionally: with a {@link FilterStoreException},
     *         or with what {@code builder} threw.
     */
    public CompletableFuture<Void> create(final String key, final Supplier<FilterBuilder> builder, final boolean exclusive)
    {
        return creator.submit(key, () -> createNow(key, builder, exclusive));
    }

    private void createNow(final String key, final Supplier<FilterBuilder> builder, final boolean exclusive)
    {
        lock.readLock().lock();
        try
        {
            if (closed)
            {
                throw shuttingDown();
            }
            final String reason = failed.get(key);
            if (reason != null)
            {
                throw failedError(key, reason);
            }
            if (filters.containsKey(key) || scaling.has(key))
            {
                if (exclusive)
                {
                    throw new FilterStoreException("item exists");
                }
                return; // the command runs again and finds the key's filter, of whichever kind
            }
        }
        finally
        {
            lock.readLock().unlock();
        }
        final String name = KeyNames.fileName(key);
        if (name == null)
        {
            throw new FilterStoreException("key is empty or too long to name a file");
        }
        if (openCount() >= maxFilters)
        {
            throw new FilterStoreException(FilterBudget.limitReached(maxFilters));
        }
        final DuplicateFilter filter = FixedFileMaker.make(dir.resolve(name), builder, durability, clock);
        lock.writeLock().lock();
        try
        {
            if (closed)
            {
                filter.close();
                throw shuttingDown();
            }
            durability.created(key, filter); // checkpointed from now on, before it takes a write
            add(key, filter);
            log.println(FilterEvents.created(key, filter));
        }
        finally
        {
            lock.writeLock().unlock();
        }
    }

    /**
     * Makes a filter that grows, on the creation thread as {@link #create} (a NONSCALING filter of 10^9 items
     * allocates a gigabyte on disk), counted against {@code --max-filters} with the fixed-size ones.
     *
     * @param key       the key.
     * @param maker     makes the filter's file.
     * @param exclusive fail with {@code item exists} when the key exists (BF.RESERVE, a dump's header); otherwise an
     *                  existing key of either kind is success (a filter made on first use, which another client may
     *                  have made meanwhile).
     * @return completes once the filter is in the store (or the key exists), or exceptionally: with a
     *         {@link FilterStoreException} for what the store could not do, or with what {@code maker} threw (the
     *         caller's to word).
     */
    public CompletableFuture<Void> createScaling(final String key, final ScalingRegistry.Maker maker,
        final boolean exclusive)
    {
        return creator.submit(key, () -> createScalingNow(key, maker, exclusive));
    }

    private void createScalingNow(final String key, final ScalingRegistry.Maker maker, final boolean exclusive)
    {
        lock.readLock().lock();
        try
        {
            if (closed)
            {
                throw shuttingDown();
            }
            if (kind(key) != Kind.NONE)
            {
                if (exclusive)
                {
                    throw new FilterStoreException("item exists");
                }
                return;
            }
        }
        finally
        {
            lock.readLock().unlock();
        }
        if (openCount() >= maxFilters)
        {
            throw new FilterStoreException(FilterBudget.limitReached(maxFilters));
        }
        log.println(FilterEvents.created(key, scaling.create(key, maker)));
    }

    /**
     * Deletes a filter and its file.
     *
     * @param key   the key.
     * @param drain returns once every element published so far for the filter has been judged.
     * @return whether there was a filter.
     */
    public boolean delete(final String key, final Consumer<DuplicateFilter> drain)
    {
        lock.writeLock().lock();
        try
        {
            if (!closed && scaling.has(key))
            {
                log.println("ddf: deleted filter '" + KeyNames.display(key) + "' (scaling)");
                try
                {
                    return scaling.delete(key);
                }
                catch (final IllegalStateException e)
                {
                    throw new FilterStoreException(String.valueOf(e.getMessage()).replaceFirst("^ERR ", ""));
                }
            }
            final DuplicateFilter filter = filters.get(key);
            if (filter == null && !closed && failed.containsKey(key))
            {
                return deleteFailed(key);
            }
            if (filter == null || closed)
            {
                return false;
            }
            drain.accept(filter);
            durability.removed(key);
            filters.remove(key);
            leases.remove(key);
            log.println(FilterEvents.deleted(key, filter));
            final Path path = filter.path();
            filter.close();
            try
            {
                io.ddf.persistence.LivePlacement.delete(path); // and its live copy
            }
            catch (final IOException e)
            {
                throw new FilterStoreException("filter closed but its file was not deleted: " + OneLine.of(e));
            }
            deletedDurably();
            return true;
        }
        finally
        {
            lock.writeLock().unlock();
        }
    }

    /** Deletes the file of a key that could not be opened, so the key can be made again. */
    private boolean deleteFailed(final String key)
    {
        final String name = KeyNames.fileName(key);
        try
        {
            io.ddf.persistence.LivePlacement.delete(dir.resolve(name));
        }
        catch (final IOException e)
        {
            throw new FilterStoreException("cannot delete " + dir.resolve(name) + ": " + OneLine.of(e));
        }
        failed.remove(key);
        return true;
    }

    /** Under {@code --fsync always}, forces the directory of a deleted file before the deletion is acknowledged. */
    private void deletedDurably()
    {
        try
        {
            durability.deleted(dir);
        }
        catch (final java.io.UncheckedIOException e)
        {
            throw new FilterStoreException(e.getMessage());
        }
    }

    /** Refuses every later lookup and creation; returns once no publication or creation is under way. */
    public void stopPublishing()
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
        creator.stop();
    }

    /** Flushes and closes every filter, and releases the directory. Call after the pipeline has drained. */
    @Override
    public void close()
    {
        stopPublishing();
        if (ownsDurability)
        {
            durability.stopLogging();
        }
        lock.writeLock().lock();
        try
        {
            closed = true;
            if (!directory.locked())
            {
                return;
            }
            try
            {
                // Sealed and forced together: the time grows with the data changed, not the number of filters.
                Filters.closeAll(filters.values());
            }
            finally
            {
                filters.clear();
                leases.clear();
                scaling.close();
            }
            if (ownsDurability)
            {
                durability.close(); // the log, before the directory's lock is released
            }
            directory.close();
        }
        finally
        {
            lock.writeLock().unlock();
            if (ownsDurability)
            {
                durability.close();
            }
        }
    }

    private static FilterStoreException shuttingDown()
    {
        return new FilterStoreException("server is shutting down");
    }

    /**
     * @param key    a key whose file could not be opened.
     * @param reason why, naming the file.
     * @return the error its commands answer.
     */
    private static FilterStoreException failedError(final String key, final String reason)
    {
        return new FilterStoreException(reason + " (DEL " + key + " deletes the file so the key can be made again)");
    }
}
