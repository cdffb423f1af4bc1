package io.ddf.ingest.durability;

import io.ddf.engine.Filters;
import io.ddf.engine.SyncPolicy;
import io.ddf.engine.SyncStats;
import io.ddf.persistence.log.LogStats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The lines of {@code INFO persistence} about durability, and the metrics endpoint's figures. Redis's names where
 * Redis has the thing: {@code aof_enabled} (the change log is on: policy always or everysec),
 * {@code aof_last_write_status} (whether it can be written), {@code aof_current_size} (its bytes from the oldest
 * position held to the end), {@code aof_pending_bio_fsync} (a force by the log's thread under way),
 * {@code aof_delayed_fsync} (forces slower than {@code --fsync-warn-ms}); a round of checkpoints plays the part of
 * Redis's AOF rewrite (it bounds the log), so {@code aof_rewrite_in_progress}, {@code aof_rewrites},
 * {@code aof_last_rewrite_time_sec} and {@code aof_last_bgrewrite_status} say those. ddf's own, prefixed
 * {@code ddf_}, for the rest (docs/operations.md lists them).
 */
final class PersistenceInfo
{
    private PersistenceInfo()
    {
    }

    static List<String> lines(final Durability.Options options, final DirectoryLog log, final Checkpoints checkpoints,
        final GroupCommit commit, final Restarts restarts)
    {
        final List<String> lines = new ArrayList<>();
        final LogStats stats = log == null ? null : log.log().stats();
        final Checkpoints.Stats cps = checkpoints == null ? null : checkpoints.stats();
        lines.add("aof_enabled:" + (log == null ? 0 : 1));
        lines.add("aof_rewrite_in_progress:" + (cps != null && cps.running() ? 1 : 0));
        lines.add("aof_rewrite_scheduled:0");
        lines.add("aof_last_rewrite_time_sec:" + (cps == null || cps.rounds() == 0 ? -1 :
            Math.round(cps.lastNanos() / 1e9)));
        lines.add("aof_current_rewrite_time_sec:-1");
        lines.add("aof_last_bgrewrite_status:" + (cps == null || cps.lastOk() ? "ok" : "err"));
        lines.add("aof_rewrites:" + (cps == null ? 0 : cps.rounds()));
        lines.add("aof_last_write_status:" + (log != null && log.refusing() ? "err" : "ok"));
        if (log != null)
        {
            lines.add("aof_current_size:" + (stats.appended() - stats.start()));
            lines.add("aof_buffer_length:0");
            lines.add("aof_pending_bio_fsync:" + (log.forcing() ? 1 : 0));
            lines.add("aof_delayed_fsync:" + log.delayed());
        }
        lines.add("ddf_fsync:" + options.policy().cliName());
        if (log != null)
        {
            logLines(lines, options, log, stats, cps);
        }
        else if (cps != null)
        {
            checkpointLines(lines, options, cps); // --fsync no, tables live: rounds without a log
        }
        syncLines(lines, options, stats, commit);
        lines.addAll(restarts.infoLines());
        return lines;
    }

    private static void logLines(final List<String> lines, final Durability.Options options, final DirectoryLog log,
        final LogStats stats, final Checkpoints.Stats cps)
    {
        lines.add("ddf_log_dir:" + log.log().directory());
        lines.add("ddf_log_bytes:" + stats.bytesOnDisk());
        lines.add("ddf_log_segments:" + stats.segments());
        lines.add("ddf_log_start:" + stats.start());
        lines.add("ddf_log_appended:" + stats.appended());
        lines.add("ddf_log_forced:" + stats.forced());
        lines.add("ddf_log_records_since_checkpoint:" + stats.unitsSince(cps.position()));
        final String refusal = log.refusal();
        lines.add("ddf_log_write_error:" + (refusal == null ? "" : refusal.replaceAll("[\r\n]", " ")));
        lines.add("ddf_checkpoint_log_bytes:" + options.checkpointBytes());
        lines.add("ddf_checkpoint_position:" + cps.position());
        checkpointLines(lines, options, cps);
        lines.add("ddf_log_segments_dropped:" + cps.droppedSegments());
        lines.add("ddf_log_forces:" + stats.forces());
        lines.add(String.format(Locale.ROOT, "ddf_log_force_mean_ms:%.3f", stats.meanForceNanos() / 1e6));
        lines.add(String.format(Locale.ROOT, "ddf_log_force_max_ms:%.3f", stats.maxForceNanos() / 1e6));
    }

    /** The checkpoints' lines, also without a log. */
    private static void checkpointLines(final List<String> lines, final Durability.Options options,
        final Checkpoints.Stats cps)
    {
        lines.add("ddf_checkpoint_seconds:" + options.checkpointSeconds());
        lines.add("ddf_last_checkpoint_time:" + cps.lastStartMillis() / 1000);
        lines.add(String.format(Locale.ROOT, "ddf_last_checkpoint_ms:%.1f", cps.lastNanos() / 1e6));
        lines.add("ddf_last_checkpoint_filters:" + cps.lastFilters());
        lines.add("ddf_checkpoints:" + cps.checkpoints());
        lines.add("ddf_checkpoint_failures:" + cps.failures());
    }

    /** The lines before the log (issue 24's), now about the log's forces when there is one. */
    private static void syncLines(final List<String> lines, final Durability.Options options, final LogStats stats,
        final GroupCommit commit)
    {
        final SyncStats background = Filters.syncStats();
        final boolean commits = commit != null && commit.commits() > 0;
        final double lastMs = stats != null ? stats.lastForceNanos() / 1e6 :
            commits ? commit.lastNanos() / 1e6 : background.lastMillis();
        final long lastTime = stats != null ? stats.lastForceStartMillis() :
            commits ? commit.lastMillis() : background.lastStartMillis();
        lines.add(String.format(Locale.ROOT, "last_fsync_ms:%.3f", lastMs));
        lines.add("last_fsync_time:" + lastTime / 1000);
        final long delayed = background.delayed() + (commit == null ? 0 : commit.delayed());
        final long errors = background.failures() + (commit == null ? 0 : commit.errors());
        lines.add("fsync_delayed:" + delayed);
        lines.add("fsync_errors:" + errors);
        lines.add("last_fsync_status:" + (errors == 0 ? "ok" : "err"));
        lines.add("fsync_warn_ms:" + options.boundMillis());
        lines.add("group_commits:" + (commit == null ? 0 : commit.commits()));
        lines.add("group_commit_releases:" + (commit == null ? 0 : commit.releases()));
        lines.add("background_sync_cycles:" + background.cycles());
        lines.add(String.format(Locale.ROOT, "background_sync_last_ms:%.3f", background.lastMillis()));
        lines.add("background_sync_last_pages:" + background.lastPages());
        if (options.policy() == SyncPolicy.NO)
        {
            lines.add("ddf_log_bytes:0");
        }
    }

    static PersistenceFigures figures(final DirectoryLog log, final Checkpoints checkpoints,
        final Restarts restarts)
    {
        if (log == null)
        {
            final Checkpoints.Stats cps = checkpoints == null ? null : checkpoints.stats(); // no: live tables' rounds
            return new PersistenceFigures(false, 0, 0, 0, true, 0, 0, 0, 0, 0, cps == null ? 0 : cps.checkpoints(),
                cps == null ? 0 : cps.failures(), cps == null ? 0 : cps.lastStartMillis() / 1000.0,
                cps == null ? 0 : cps.lastNanos() / 1e9, restarts.replayed(), restarts.records(),
                restarts.replayNanos() / 1e9);
        }
        final LogStats stats = log.log().stats();
        final Checkpoints.Stats cps = checkpoints.stats();
        return new PersistenceFigures(true, stats.bytesOnDisk(), stats.segments(), stats.unitsSince(cps.position()),
            !log.refusing(), stats.forces(), stats.totalForceNanos() / 1e9, stats.lastForceNanos() / 1e9,
            stats.maxForceNanos() / 1e9, log.delayed(), cps.checkpoints(), cps.failures(),
            cps.lastStartMillis() / 1000.0, cps.lastNanos() / 1e9, restarts.replayed(), restarts.records(),
            restarts.replayNanos() / 1e9);
    }
}
