package io.ddf.engine.scaling;

import io.ddf.persistence.Syncable;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.Checkpoint;
import io.ddf.persistence.log.Checkpointable;
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
     * @param log the log (the daemon's data directory's).
     * @return what was done.
     */
    public final Recovery logTo(final ChangeLog log)
    {
        throw new UnsupportedOperationException("issue 31: scaling filters through the change log come next");
    }

    /** @return what {@link #logTo} did, or NOT_LOGGED. */
    public final Recovery recovery()
    {
        return Recovery.of(Recovery.Outcome.NOT_LOGGED, 0, 0);
    }

    @Override
    public final Checkpoint checkpoint()
    {
        throw new UnsupportedOperationException("issue 31: scaling filters through the change log come next");
    }

    @Override
    public final long checkpointPosition()
    {
        return 0;
    }

    @Override
    public final ChangeLog log()
    {
        return null;
    }

    /** Unmaps and releases the file, once no sync runs and no command holds the filter. */
    @Override
    public final void close()
    {
        synchronized (syncLock)
        {
            closed = true;
            synchronized (this)
            {
                file.close();
            }
        }
    }
}
