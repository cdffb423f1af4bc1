package io.ddf.engine;

import io.ddf.engine.internal.BackgroundSync;
import io.ddf.engine.internal.FilterFactory;
import io.ddf.engine.internal.MappedFilter;
import io.ddf.persistence.Syncable;

import java.nio.file.Path;

/** Entry point for embedders: build a new filter, or open one from its file alone. */
public final class Filters
{
    private Filters()
    {
    }

    /**
     * @param kind the kind of filter to build.
     * @return a builder with that kind's defaults.
     */
    public static FilterBuilder builder(final FilterKind kind)
    {
        return new FilterBuilder(kind);
    }

    /**
     * Opens an existing filter file, with the default sync policy ({@link SyncPolicy#EVERYSEC}), as
     * {@link #open(Path, SyncPolicy)} does.
     *
     * @param path the filter file.
     * @return the filter, its state as the file holds it.
     * @throws io.ddf.persistence.FilterFileException when the file is missing, foreign, corrupt, truncated,
     *                                                unready or held by another writer.
     */
    public static DuplicateFilter open(final Path path)
    {
        return open(path, SyncPolicy.DEFAULT);
    }

    /**
     * Opens an existing filter file; kind and parameters come from its header. A file closed cleanly is checked by
     * its seal's checksum; one that was not (a crash, a kill, a power cut) by its structure, then repaired by its
     * kind; one whose seal does not match its contents (closed by an earlier build while a write was still landing,
     * or changed on disk since) is opened as after a crash, its structure checked and repaired, the reason logged
     * (System.Logger {@code io.ddf.engine}, WARNING) and {@link DuplicateFilter#lastClose()} saying so; only a
     * structure found wrong is refused, naming the file and what is wrong ({@code ddf verify} reports a seal that
     * does not match without opening the file).
     *
     * @param path   the filter file.
     * @param policy when its changes reach the storage device.
     * @return the filter, its state as the file holds it ({@link DuplicateFilter#lastClose()} says how it was left).
     * @throws io.ddf.persistence.FilterFileException when the file is missing, foreign, corrupt (a structure found
     *                                                wrong), truncated, unready or held by another writer.
     */
    public static DuplicateFilter open(final Path path, final SyncPolicy policy)
    {
        return MappedDuplicateFilter.of(FilterFactory.open(path, false, policy.mode()));
    }

    /**
     * Opens an existing filter file written through a given change log (the daemon's data directory's), deciding as
     * FORMAT-LOG.md says: sealed or same boot, nothing to replay; after a restart of the machine, its records replayed
     * from its checkpoint ({@link DuplicateFilter#recovery()} says which and how long). Its changes are recorded in
     * the log from now on; the caller forces the log (its sync policy) and checkpoints the filter.
     *
     * @param path the filter file.
     * @param log  the change log.
     * @return the filter.
     * @throws io.ddf.persistence.FilterFileException as {@link #open(Path, SyncPolicy)}.
     */
    public static DuplicateFilter open(final Path path, final io.ddf.persistence.log.ChangeLog log)
    {
        return MappedDuplicateFilter.of(FilterFactory.open(path, false, log, null));
    }

    /**
     * Opens many filter files written through one change log (a daemon's start-up), each as
     * {@link #open(Path, io.ddf.persistence.log.ChangeLog)} does, but as strict as {@link #openAll(java.util.List,
     * SyncPolicy)} about seals, and forcing what opening changes in them together.
     *
     * @param paths the files.
     * @param log   the change log.
     * @return per path, in order: its filter or why it was refused.
     */
    public static java.util.List<Opened> openAll(final java.util.List<Path> paths,
        final io.ddf.persistence.log.ChangeLog log)
    {
        return openAll(paths, log, null);
    }

    /**
     * Opens many filter files written through one change log, as {@link #openAll(java.util.List,
     * io.ddf.persistence.log.ChangeLog)} does, the filters with a window of time on the given wall clock (as
     * {@link #openAll(java.util.List, SyncPolicy, java.time.InstantSource)}).
     *
     * @param paths the files.
     * @param log   the change log.
     * @param clock the wall clock of the filters with a window of time, or null for the engine's.
     * @return per path, in order: its filter or why it was refused.
     */
    public static java.util.List<Opened> openAll(final java.util.List<Path> paths,
        final io.ddf.persistence.log.ChangeLog log, final java.time.InstantSource clock)
    {
        final java.util.List<Opened> opened = new java.util.ArrayList<>(paths.size());
        final io.ddf.engine.spi.FilterClock wallClock = clock == null ? null : () -> Math.max(0, clock.millis());
        FilterFactory.openAll(paths, log, wallClock, (path, result) -> opened.add(result instanceof RuntimeException ?
            new Opened(path, null, (RuntimeException)result) :
            new Opened(path, MappedDuplicateFilter.of((MappedFilter)result), null)));
        return opened;
    }

    /**
     * Opens many filter files (a daemon's start-up), each as {@link #open} does (but refusing a file whose seal does
     * not match, see {@link #openAll(java.util.List, SyncPolicy)}), forcing what opening changes in them (a cleanly
     * closed file's seal is cleared) together: one {@code syncfs} per file system on Linux instead of a device flush
     * per file.
     *
     * @param paths the files.
     * @return per path, in order: its filter or why it was refused.
     */
    public static java.util.List<Opened> openAll(final java.util.List<Path> paths)
    {
        return openAll(paths, SyncPolicy.DEFAULT);
    }

    /**
     * Opens many filter files (a daemon's start-up), each as {@link #open(Path, SyncPolicy)} does but stricter: a
     * file whose seal does not match its contents is refused ({@code CORRUPT}, naming it), as a server should not
     * serve a file changed on disk since its clean close; forcing what opening changes in them together.
     *
     * @param paths  the files.
     * @param policy when their changes reach the storage device.
     * @return per path, in order: its filter or why it was refused.
     */
    public static java.util.List<Opened> openAll(final java.util.List<Path> paths, final SyncPolicy policy)
    {
        return openAll(paths, policy, null);
    }

    /**
     * Opens many filter files as {@link #openAll(java.util.List, SyncPolicy)} does, the filters with a window of time
     * on the given wall clock ({@link FilterBuilder#clock}): what it reads at the open is the time applied to them
     * (their generations whose window passed while the files were closed expire, {@link TimeWindow#atOpen()}).
     *
     * @param paths  the files.
     * @param policy when their changes reach the storage device.
     * @param clock  the wall clock of the filters with a window of time, or null for the engine's.
     * @return per path, in order: its filter or why it was refused.
     */
    public static java.util.List<Opened> openAll(final java.util.List<Path> paths, final SyncPolicy policy,
        final java.time.InstantSource clock)
    {
        final java.util.List<Opened> opened = new java.util.ArrayList<>(paths.size());
        final io.ddf.engine.spi.FilterClock wallClock = clock == null ? null : () -> Math.max(0, clock.millis());
        FilterFactory.openAll(paths, policy.mode(), wallClock, (path, result) -> opened.add(
            result instanceof RuntimeException ?
            new Opened(path, null, (RuntimeException)result) :
            new Opened(path, MappedDuplicateFilter.of((MappedFilter)result), null)));
        return opened;
    }

    /**
     * @return what the background syncs of {@link SyncPolicy#EVERYSEC} (and the header refreshes of
     *         {@link SyncPolicy#ALWAYS}) did in this process.
     */
    public static SyncStats syncStats()
    {
        final BackgroundSync.Stats s = BackgroundSync.stats();
        return new SyncStats(s.cycles(), s.lastNanos() / 1e6, s.lastStartMillis(), s.lastFilters(), s.lastPages(),
            s.delayed(), s.failures(), s.lastFailure(), java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(
            s.boundNanos()));
    }

    /**
     * @param bound how long a once-a-second sync cycle may take before it counts as delayed ({@link SyncStats}) and
     *              is logged (through {@link System.Logger} {@code io.ddf.engine.sync}); 1 s unless set.
     */
    public static void syncBound(final java.time.Duration bound)
    {
        BackgroundSync.bound(bound.toNanos());
    }

    /**
     * Policy {@link SyncPolicy#EVERYSEC} for a file of another kind (a filter that grows): the once-a-second cycle
     * forces it when it changed, until {@link #stopSyncing}.
     *
     * @param file the file.
     */
    public static void syncEverySecond(final Syncable file)
    {
        BackgroundSync.register(file);
    }

    /** @param file a file {@link #syncEverySecond} took: the cycle leaves it from now on (before it closes). */
    public static void stopSyncing(final Syncable file)
    {
        BackgroundSync.unregister(file);
    }

    /**
     * One file of {@link #openAll}.
     *
     * @param path    the file.
     * @param filter  its filter, or null.
     * @param failure why it was refused (a {@link io.ddf.persistence.FilterFileException} naming the file and the
     *                reason), or null.
     */
    public record Opened(Path path, DuplicateFilter filter, RuntimeException failure)
    {
    }

    /**
     * Closes many filters at once, as {@link DuplicateFilter#close()} each (new calls refused, the calls under way
     * waited for, then each file hashed and sealed), but forcing their files together (one {@code syncfs} per file
     * system on Linux): a daemon with thousands of filters stops in a time that grows with the data changed, not with
     * the number of filters. Safe while other threads call them. Every filter is closed even when some fail.
     *
     * @param filters filters made by this class or a {@link FilterBuilder}; closed ones are skipped.
     * @throws io.ddf.persistence.FilterFileException the first failure (e.g. a file truncated from outside).
     */
    public static void closeAll(final java.util.Collection<? extends DuplicateFilter> filters)
    {
        final java.util.List<MappedFilter> mapped = new java.util.ArrayList<>();
        RuntimeException failure = null;
        for (final DuplicateFilter filter : filters)
        {
            if (filter instanceof MappedDuplicateFilter)
            {
                mapped.add(((MappedDuplicateFilter)filter).machinery());
            }
            else
            {
                try
                {
                    filter.close();
                }
                catch (final RuntimeException e)
                {
                    failure = e;
                }
            }
        }
        MappedFilter.closeAll(mapped);
        if (failure != null)
        {
            throw failure;
        }
    }

    /**
     * @param filter a filter made by this engine.
     * @return a view of its mutable words, for code that replicates a filter word by word (see {@link FilterWords}).
     * @throws IllegalArgumentException when the filter was not made by this engine.
     * @throws IllegalStateException    when the filter is closed.
     */
    public static FilterWords mutableWords(final DuplicateFilter filter)
    {
        if (!(filter instanceof MappedDuplicateFilter))
        {
            throw new IllegalArgumentException("not a filter made by ddf's engine: " + filter);
        }
        return new FilterWords(((MappedDuplicateFilter)filter).machinery().mutableWords());
    }
}
