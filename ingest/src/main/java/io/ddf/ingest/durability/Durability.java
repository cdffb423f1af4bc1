package io.ddf.ingest.durability;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Filters;
import io.ddf.engine.SyncPolicy;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.resp.DurabilityBarrier;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.Checkpointable;
import io.ddf.persistence.log.LogUnavailableException;
import io.ddf.persistence.log.Recovery;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code serve --fsync always|everysec|no} (issues 24 and 31): the data directory's change log ({@link DirectoryLog},
 * {@code <data-dir>/log/}) every filter is written through under {@code always} and {@code everysec}, its
 * {@link Checkpoints}, the {@link DurabilityBarrier} the replies pass ({@link GroupCommit} for {@code always}), what
 * start-up found of each filter ({@link Restarts}), whether writes are refused now (the log cannot be written), and
 * the lines of {@code INFO persistence}.
 *
 * <ul>
 *   <li>{@code everysec} (the default, Redis's): each change a filter acknowledges appends a record to the log (in
 *       the page cache before the reply leaves: a {@code kill -9} loses nothing), which the log's thread forces
 *       once a second, off the event loops; the mapped tables are made durable only by checkpoints.</li>
 *   <li>{@code always}: a reply that acknowledges a write leaves once the write is on the device, the writes of many
 *       replies sharing one force ({@link GroupCommit}); in both execution modes and on the raw feed.</li>
 *   <li>{@code no}: no log. With the tables live ({@link LiveTables}, the default on a disk) each table is forced
 *       into the data directory every {@code --checkpoint-seconds}, the same rounds as the log's checkpoints without
 *       a position ({@link LoggedFilter#unlogged}); a power cut takes what changed since the last round. In place
 *       ({@code --live-dir none}), nothing is forced while open: the kernel's writeback.</li>
 * </ul>
 */
public final class Durability implements AutoCloseable
{
    /** The change log's directory in the data directory. */
    public static final String LOG_DIRECTORY = DirectoryLog.DIRECTORY;

    private final Options options;
    private final PrintStream log;
    private final GroupCommit commit;
    private final Restarts restarts;
    /** The data directory's log: null under {@code no}, or before {@link #openLog}. */
    private DirectoryLog directoryLog;
    /** Its checkpoints; under {@code no} the live tables' rounds (null when the tables are in place). */
    private Checkpoints checkpoints;
    /** Where the filter tables are mapped ({@code --live-dir}): set by {@link #openLog}. */
    private LiveTables liveTables;

    /**
     * What {@code serve} says of durability.
     *
     * @param policy            {@code --fsync}.
     * @param boundMillis       {@code --fsync-warn-ms}: a force slower than this is logged and counted as delayed.
     * @param checkpointSeconds {@code --checkpoint-seconds}.
     * @param checkpointBytes   {@code --checkpoint-log-bytes}.
     * @param segmentBytes      record bytes per segment file of the log.
     * @param liveDir           {@code --live-dir}: null for the default ({@link LiveTables}), {@code none}, or a
     *                          directory.
     */
    public record Options(SyncPolicy policy, long boundMillis, long checkpointSeconds, long checkpointBytes,
        long segmentBytes, String liveDir)
    {
        /**
         * With the default live directory.
         *
         * @param policy            {@code --fsync}.
         * @param boundMillis       {@code --fsync-warn-ms}.
         * @param checkpointSeconds {@code --checkpoint-seconds}.
         * @param checkpointBytes   {@code --checkpoint-log-bytes}.
         * @param segmentBytes      record bytes per segment file of the log.
         */
        public Options(final SyncPolicy policy, final long boundMillis, final long checkpointSeconds,
            final long checkpointBytes, final long segmentBytes)
        {
            this(policy, boundMillis, checkpointSeconds, checkpointBytes, segmentBytes, null);
        }

        /**
         * @param policy the policy.
         * @return the policy with the defaults of the rest.
         */
        public static Options of(final SyncPolicy policy)
        {
            return new Options(policy, 1000, DEFAULT_CHECKPOINT_SECONDS, DEFAULT_CHECKPOINT_BYTES,
                io.ddf.persistence.log.LogOptions.DEFAULT_SEGMENT_BYTES);
        }
    }

    /** {@link Options#of}'s: ServerConfig's defaults (config may not be used here; ChangeLogDaemonTest checks). */
    public static final long DEFAULT_CHECKPOINT_SECONDS = 60;
    /** {@link Options#of}'s: ServerConfig's default {@code --checkpoint-log-bytes}. */
    public static final long DEFAULT_CHECKPOINT_BYTES = 1L << 30;

    /**
     * @param options what serve says of durability.
     * @param log     the daemon's log.
     */
    public Durability(final Options options, final PrintStream log)
    {
        this.options = options;
        this.log = log;
        this.commit = options.policy() == SyncPolicy.ALWAYS ? new GroupCommit(options.boundMillis(), log) : null;
        this.restarts = new Restarts(log);
        Filters.syncBound(java.time.Duration.ofMillis(options.boundMillis()));
    }

    /**
     * Opens the data directory's change log (none under {@code --fsync no}), cutting its torn tail and saying so.
     * Call once the directory is locked, before any filter is opened.
     *
     * @param dataDir the data directory.
     * @return the log every filter is opened and made through, or null under {@code no}.
     */
    public ChangeLog openLog(final Path dataDir)
    {
        liveTables = LiveTables.place(dataDir, options.liveDir(), options.policy(), log);
        if (options.policy() == SyncPolicy.NO)
        {
            if (liveTables.live())
            {
                checkpoints = new Checkpoints(null, options.checkpointSeconds(), options.checkpointBytes(), log);
            }
            return null;
        }
        directoryLog = DirectoryLog.open(dataDir, options.segmentBytes(), options.policy() == SyncPolicy.EVERYSEC,
            options.boundMillis(), log);
        checkpoints = new Checkpoints(directoryLog.log(), options.checkpointSeconds(), options.checkpointBytes(),
            log);
        if (commit != null)
        {
            commit.throughLog(directoryLog.log());
        }
        return directoryLog.log();
    }

    /** @return whether the filter tables are mapped from live copies ({@code --live-dir}): two descriptors each. */
    public boolean tablesLive()
    {
        return liveTables != null && liveTables.live();
    }

    /** @return the data directory's change log, or null (policy {@code no}). */
    public ChangeLog changeLog()
    {
        return directoryLog == null ? null : directoryLog.log();
    }

    /** Starts forcing the log and checkpointing, once every filter found at start is open ({@link #opened}). */
    public void start()
    {
        if (liveTables != null)
        {
            liveTables.logOpenings(log); // every filter found is open now
        }
        if (checkpoints != null)
        {
            checkpoints.start();
        }
        if (directoryLog != null)
        {
            directoryLog.start(checkpoints::all);
        }
    }

    /**
     * @return the policy the scaling filters not written through the log are opened and created with: under
     *         {@code always} their pages are tracked as under {@code everysec} (the background thread keeps the
     *         files' last sync times fresh), and the group commit syncs them before the replies leave.
     */
    public SyncPolicy filePolicy()
    {
        return options.policy() == SyncPolicy.ALWAYS ? SyncPolicy.EVERYSEC : options.policy();
    }

    /** @return what the replies wait for. */
    public DurabilityBarrier barrier()
    {
        return commit != null ? commit : DurabilityBarrier.NONE;
    }

    /**
     * @return the error a write gets now, or null when writes may go on: while the change log cannot be written
     *         (a full disk, an I/O error), and until every filter is checkpointed once it can again, writes are
     *         refused (Redis's {@code MISCONF}) and reads go on.
     */
    public String writeRefusal()
    {
        final DirectoryLog held = directoryLog;
        return held == null ? null : held.refusal();
    }

    /**
     * @param failure an append that failed.
     * @return the error its write gets: the refusal in force, else the refusal that failure makes (naming the data
     *         directory), whichever thread met it first and told the listeners; null without a log.
     */
    public String refusalOf(final LogUnavailableException failure)
    {
        final DirectoryLog held = directoryLog;
        if (held == null)
        {
            return null;
        }
        final String refusal = held.refusal();
        return refusal != null ? refusal : held.refusalOf(failure);
    }

    /**
     * @param listener told {@link #writeRefusal()} now and at each change (null: writes go on); nothing without a log.
     */
    public void onWriteRefusal(final java.util.function.Consumer<String> listener)
    {
        final DirectoryLog held = directoryLog;
        if (held != null)
        {
            held.onRefusal(listener);
        }
    }

    /**
     * Shutting down: the replies held for a commit under way are written once it completes (a second at most).
     */
    public void awaitCommits()
    {
        if (commit != null)
        {
            commit.awaitIdle(1000);
        }
    }

    /** Stops the checkpoints and the log's thread: call before the filters are closed (their close seals them). */
    public void stopLogging()
    {
        if (checkpoints != null)
        {
            checkpoints.close();
        }
        if (directoryLog != null)
        {
            directoryLog.stop();
        }
    }

    /** Closes the group commit and the log (call once every filter is closed: their seals forced it). */
    @Override
    public void close()
    {
        if (commit != null)
        {
            commit.close();
        }
        stopLogging();
        if (directoryLog != null)
        {
            directoryLog.close();
            directoryLog = null;
        }
        if (liveTables != null)
        {
            liveTables.close();
            liveTables = null;
        }
    }

    /**
     * A filter file was deleted (DEL): under {@code always} its directory is forced before the reply leaves, so that
     * the deletion acknowledged survives a power cut (a file's removal is a change of its directory; creation forces
     * the directory under every policy, FORMAT.md).
     *
     * @param directory the data directory.
     * @throws java.io.UncheckedIOException when the directory cannot be forced.
     */
    public void deleted(final java.nio.file.Path directory)
    {
        if (options.policy() != SyncPolicy.ALWAYS)
        {
            return;
        }
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(directory,
            java.nio.file.StandardOpenOption.READ))
        {
            channel.force(true);
        }
        catch (final java.io.IOException e)
        {
            throw new java.io.UncheckedIOException("the filter's file was deleted but the deletion may not survive a " +
                "power cut: cannot fsync " + directory + ": " + OneLine.of(e), e);
        }
    }

    /**
     * Start-up: says what opening a fixed-size filter found and did (a line per filter through the log; under
     * {@code no}, one per filter not closed cleanly), and checkpoints it from now on.
     *
     * @param key    the filter's key.
     * @param filter the filter opened.
     */
    public void opened(final String key, final DuplicateFilter filter)
    {
        if (filter.changeLog() == null)
        {
            restarts.opened(key, filter.path(), filter.lastClose());
            unlogged(key, filter::sync);
            return;
        }
        final boolean early = restarts.opened(key, filter.path(), filter.recovery());
        checkpoints.register(key, LoggedFilter.of(filter), early);
    }

    /**
     * Start-up: as {@link #opened(String, DuplicateFilter)}, for a filter that grows written through the log.
     *
     * @param key      the filter's key.
     * @param path     its file.
     * @param filter   the filter.
     * @param recovery what its open did.
     */
    public void opened(final String key, final Path path, final Checkpointable filter, final Recovery recovery)
    {
        final boolean early = restarts.opened(key, path, recovery);
        checkpoints.register(key, LoggedFilter.of(filter), early);
    }

    /**
     * A fixed-size filter was made (before it takes a write): checkpointed from now on when written through the log.
     *
     * @param key    its key.
     * @param filter the filter.
     */
    public void created(final String key, final DuplicateFilter filter)
    {
        if (filter.changeLog() != null && checkpoints != null)
        {
            checkpoints.register(key, LoggedFilter.of(filter), false);
        }
        else if (filter.changeLog() == null)
        {
            unlogged(key, filter::sync);
        }
    }

    /**
     * A filter not written through a log (opened or made under {@code no}, before it takes a write): its live table
     * forced into the data directory at each round from now on; nothing when the tables are in place.
     *
     * @param key  its key.
     * @param sync its {@code sync()}.
     */
    public void unlogged(final String key, final java.util.function.LongSupplier sync)
    {
        if (checkpoints != null && directoryLog == null)
        {
            checkpoints.register(key, LoggedFilter.unlogged(sync), false);
        }
    }

    /**
     * A filter that grows was made through the log (before it takes a write): checkpointed from now on.
     *
     * @param key    its key.
     * @param filter the filter.
     */
    public void created(final String key, final Checkpointable filter)
    {
        if (checkpoints != null)
        {
            checkpoints.register(key, LoggedFilter.of(filter), false);
        }
    }

    /** @param key a key whose filter is about to be closed and deleted: no longer checkpointed. */
    public void removed(final String key)
    {
        if (checkpoints != null)
        {
            checkpoints.unregister(key);
        }
    }

    /** @return the lines of {@code INFO persistence} about the log, syncing and start-up (Redis's names first). */
    public List<String> infoLines()
    {
        final List<String> lines = PersistenceInfo.lines(options, directoryLog, checkpoints, commit, restarts);
        if (liveTables != null)
        {
            lines.addAll(liveTables.infoLines());
        }
        return lines;
    }

    /** @return the figures the metrics endpoint reports, read now. */
    public PersistenceFigures figures()
    {
        return PersistenceInfo.figures(directoryLog, checkpoints, restarts);
    }
}
