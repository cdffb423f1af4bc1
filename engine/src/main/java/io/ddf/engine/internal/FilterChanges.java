package io.ddf.engine.internal;

import io.ddf.engine.changelog.FilterLog;
import io.ddf.engine.changelog.KindOps;
import io.ddf.engine.changelog.LogScheduler;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.LoggedCore;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.Recovery;

/**
 * How one {@link MappedFilter}'s changes reach its change log (FORMAT-LOG.md): which records the filter appends
 * itself (a STREAM per element judged UNSEEN when its core does not log itself, ADD and DELETE), whether each
 * changing call forces the log before it returns (sync policy always), and whether the log is the filter's own.
 * Null-free for a filter not logged (policy no, anonymous files): every method then does nothing.
 */
final class FilterChanges
{
    /** The filter's change log binding, or null when its changes are not logged. */
    private final FilterLog log;
    /** Whether the filter appends a STREAM record per element judged UNSEEN (its core does not log itself). */
    private final boolean logsStreams;
    /** Whether each changing call forces the log through its records before it returns (sync policy always). */
    private final boolean forceEachCall;
    /** Whether closing the filter closes its log (its own {@code <file>.log/}, not the daemon's). */
    private final boolean ownsLog;

    FilterChanges(final FilterLog log, final FilterCore core, final SyncMode mode, final boolean ownsLog)
    {
        this.log = log;
        this.logsStreams = log != null && !(core instanceof LoggedCore);
        this.forceEachCall = log != null && mode == SyncMode.LOG_ALWAYS;
        this.ownsLog = ownsLog;
    }

    /** @return the binding, or null when the filter is not logged. */
    FilterLog log()
    {
        return log;
    }

    /** @return the binding to append STREAM records to, or null when the filter does not append them. */
    FilterLog streams()
    {
        return logsStreams ? log : null;
    }

    /** After a stream: its record when the core does not log itself; under policy always, the log forced through it. */
    void afterStream(final long hash, final boolean duplicate)
    {
        if (logsStreams && !duplicate)
        {
            logged(KindOps.STREAM, hash);
        }
        else if (forceEachCall)
        {
            log.log().force(log.log().reserved()); // a core that logs itself
        }
    }

    /** After a batch: under policy always, its records forced in one force (group commit). */
    void afterBatch()
    {
        if (forceEachCall)
        {
            log.log().force(log.log().reserved());
        }
    }

    /** Appends an ADD or DELETE of a counting kind, forced before the call returns under policy always. */
    void logged(final int op, final long hash)
    {
        if (log == null)
        {
            return;
        }
        final long end = log.record(op, 0, hash, 0);
        if (forceEachCall)
        {
            log.log().force(end);
        }
    }

    /** @return 0 after forcing the log through its last record, -1 when it was already; -2 when not logged. */
    long force()
    {
        if (log == null)
        {
            return -2;
        }
        final ChangeLog changes = log.log();
        final long end = changes.appended();
        if (changes.forced() >= end)
        {
            return -1;
        }
        changes.force(end);
        return 0;
    }

    /** @return what the open did with the change log (NOT_LOGGED without one). */
    Recovery recovery()
    {
        return log == null ? Recovery.of(Recovery.Outcome.NOT_LOGGED, 0, 0) : log.recovery();
    }

    /** At close, once no call is in flight: no more background forces or checkpoints; the position kept. */
    void closing()
    {
        if (log != null)
        {
            LogScheduler.unregister(log);
            log.closing();
        }
    }

    /** After the file's close: the filter's own log (not the daemon's) is closed with it. */
    void closeOwnLog()
    {
        if (ownsLog)
        {
            log.log().close();
        }
    }
}
