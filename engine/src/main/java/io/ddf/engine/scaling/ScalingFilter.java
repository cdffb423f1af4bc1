package io.ddf.engine.scaling;

import io.ddf.engine.changelog.FilterLog;
import io.ddf.engine.changelog.ReplayTarget;
import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.Syncable;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.Checkpoint;
import io.ddf.persistence.log.Checkpointable;
import io.ddf.persistence.log.LogBinding;
import io.ddf.persistence.log.LogReader;
import io.ddf.persistence.log.Recovery;

import java.nio.file.Path;

/**
 * A filter in a growing file ({@link ChainFile}): a scaling Bloom chain or a RedisBloom cuckoo filter.
 *
 * <p>Syncing (issue 24: the sync policy covers these filters too): every change holds the filter's monitor (its
 * commands are {@code synchronized}) and counts itself there with a plain store ({@link #changed()}), no locked
 * instruction of its own. {@link #sync()} reads and records the count under the same monitor, then forces the file
 * outside it: a change counted before that read is in the mapping when the msync starts, one counted after is left
 * for the next sync. Syncs of one filter run one at a time ({@code syncLock}), so a sync that finds nothing new
 * returns only once the sync that took the changes is complete; closing waits for a sync under way.
 */
public abstract sealed class ScalingFilter implements AutoCloseable, Syncable, Checkpointable
    permits BloomChain, RedisCuckoo
{
    /** The filter's file. */
    final ChainFile file;
    /** Held by a sync, then by closing; taken before the filter's monitor, never inside it. */
    private final Object syncLock = new Object();
    /** Changes counted (under the filter's monitor). */
    private long changes;
    /** The count the last sync took (under the filter's monitor); MIN_VALUE after a failed sync. */
    private long synced;
    /** Under {@code syncLock}. */
    private boolean closed;
    /** The filter's binding to its change log, or null; set once, under both locks. */
    private volatile FilterLog log;
    /** Whether this filter's file was made by this process (its {@link #logTo} has nothing to decide). */
    private boolean created;
    /** Tests only: runs in a checkpoint once its position is taken, before the pages are forced. */
    volatile Runnable atCheckpointPosition;

    ScalingFilter(final ChainFile file)
    {
        this.file = file;
    }

    /** @return the file's path. */
    public final Path path()
    {
        return file.path();
    }

    /** @return the file's bytes on disk (what the filter really takes). */
    public final long fileBytes()
    {
        return file.fileBytes();
    }

    /** @return the items it holds: a chain's items inserted, a cuckoo filter's items (what INFO reports). */
    public abstract long items();

    /** Counts a change; the caller holds the filter's monitor. */
    final void changed()
    {
        changes++;
    }

    /** @return changes counted since the filter was opened (to tell whether a command changed it). */
    public final synchronized long changes()
    {
        return changes;
    }

    /** Forces the file to the device. */
    public final void flush()
    {
        file.flush();
    }

    /**
     * Forces the file to the device when it changed since the last sync (an msync of each mapped segment, the
     * unchanged pages costing no write, then an fsync); returns once every change made before the call is on the
     * device. A closed filter has nothing to sync.
     *
     * @return the segments forced, or -1 when nothing changed.
     * @throws io.ddf.persistence.FilterFileException when the sync fails (the changes stay to be synced).
     */
    @Override
    public final long sync()
    {
        synchronized (syncLock)
        {
            if (closed)
            {
                return -1;
            }
            synchronized (this)
            {
                if (changes == synced)
                {
                    return -1;
                }
                synced = changes;
            }
            try
            {
                file.flush();
            }
            catch (final RuntimeException e)
            {
                synchronized (this)
                {
                    synced = Long.MIN_VALUE;
                }
                throw e;
            }
            return file.segmentCount();
        }
    }

    /**
     * Writes this filter through a change log from now on (FORMAT-LOG.md): decides, from its header (closed cleanly,
     * the log's id, the boot id at its last open), whether the log's records of it must be replayed (after a restart
     * of the machine), replays them, and ties the file to the log. Call it once, right after creating or opening the
     * filter and before any change; from then on each change appends its record (the caller forces the log by its
     * sync policy) and {@link #checkpoint()} makes the file durable.
     *
     * @param changeLog the log (the daemon's data directory's).
     * @return what was done.
     * @throws IllegalStateException when the filter is already written through a log.
     */
    public final Recovery logTo(final ChangeLog changeLog)
    {
        synchronized (syncLock)
        {
            synchronized (this)
            {
                if (log != null)
                {
                    throw new IllegalStateException(path() + " is already written through " + log.log());
                }
                final FilterLog.Found found = created ? FilterLog.Found.CREATED : file.closedCleanly() ?
                    FilterLog.Found.SEALED : FilterLog.Found.NOT_SEALED;
                log = FilterLog.attach(changeLog, new LogBinding(file.headerAddress(),
                    LogBinding.SCALING_FILE_OFFSET, file::forceHeader), found,
                    replayTarget(), this::forcePages);
                if (file.layersMissing() > 0)
                {
                    throw new FilterFileException(FilterFileException.Reason.CORRUPT, path(), file.layersMissing() +
                        " layers were published but are neither on the device nor made again by the change log (" +
                        log.recovery().describe() + ")");
                }
                try
                {
                    checkAfterReplay();
                }
                catch (final IllegalArgumentException e)
                {
                    throw new FilterFileException(FilterFileException.Reason.CORRUPT, path(), e.getMessage() +
                        " after " + log.recovery().describe(), e);
                }
                return log.recovery();
            }
        }
    }

    /** After {@link #logTo}'s replay: checks what the open could not check before it (a cuckoo filter's counts). */
    void checkAfterReplay()
    {
    }

    /**
     * Replays one of this filter's records onto its file as it is (a torn image: FORMAT-LOG.md), under its monitor.
     *
     * @param frame the reader at the record.
     */
    abstract void replay(LogReader frame);

    /**
     * @return what replays its records: {@link #replay}, touching nothing ahead and without lanes unless a kind says
     *         (a ddf chain: {@link ChainLanes}).
     */
    ReplayTarget replayTarget()
    {
        return this::replay;
    }

    /** Marks a filter made now (its {@link #logTo} has nothing to decide). */
    final void created()
    {
        created = true;
    }

    /**
     * Appends a record of a change just made (nothing when not written through a log); the caller holds the monitor.
     *
     * @return the record's end position, or 0.
     */
    final long record(final int op, final int aux, final long hash, final long arg)
    {
        final FilterLog to = log;
        return to == null ? 0 : to.record(op, aux, hash, arg);
    }

    /** A two-unit record: see {@link #record}. */
    final long record2(final int op, final int aux, final long hash, final long arg, final long arg3)
    {
        final FilterLog to = log;
        return to == null ? 0 : to.record2(op, aux, hash, arg, arg3, 0, 0, 0);
    }

    /** @return whether the filter is written through a change log. */
    final boolean logged()
    {
        return log != null;
    }

    /** @return what {@link #logTo} did, or NOT_LOGGED. */
    public final Recovery recovery()
    {
        final FilterLog to = log;
        return to == null ? Recovery.of(Recovery.Outcome.NOT_LOGGED, 0, 0) : to.recovery();
    }

    /** The pages of every segment mapped now forced (msync, then fsync): a checkpoint's second step. */
    private void forcePages()
    {
        final Runnable probe = atCheckpointPosition;
        if (probe != null)
        {
            probe.run();
        }
        file.flush();
    }

    /**
     * A checkpoint (FORMAT-LOG.md, "Checkpoints"): P := the log's appended position (every change whose record lies
     * before P is in the mapping: a change is made before its record is appended), every segment forced, then P
     * recorded in the header and the header page forced; the log before the lowest P of its filters may then be
     * dropped ({@link ChangeLog#dropBefore}).
     *
     * <p>Writers never wait for it: it holds the sync lock and the binding's checkpoint lock, never the filter's
     * monitor that adds, deletes and growth take; the msync walks the file's mappings as a copy-on-write list, so a
     * layer grown meanwhile is forced or not, either way its records lie at or after P; the header fields it writes
     * are written by checkpoints only. A close waits for a checkpoint under way (the sync lock).
     *
     * @throws IllegalStateException when the filter is not written through a log, or closed.
     */
    @Override
    public final Checkpoint checkpoint()
    {
        synchronized (syncLock)
        {
            final FilterLog to = log;
            if (to == null || closed)
            {
                throw new IllegalStateException(path() + (closed ? " is closed" : " is not written through a " +
                    "change log"));
            }
            return to.checkpoint();
        }
    }

    @Override
    public final long checkpointPosition()
    {
        final FilterLog to = log;
        return to == null ? 0 : to.checkpointPosition();
    }

    @Override
    public final ChangeLog log()
    {
        final FilterLog to = log;
        return to == null ? null : to.log();
    }

    /** Unmaps and releases the file, once no sync runs and no command holds the filter. */
    @Override
    public final void close()
    {
        synchronized (syncLock)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            synchronized (this)
            {
                try
                {
                    if (log != null)
                    {
                        log.closing();
                    }
                    file.seal(); // forced, checksummed, sealed (issue 31 item 9: checked at the next open)
                }
                finally
                {
                    file.close();
                }
            }
        }
    }
}
