package io.ddf.ingest.durability;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Filters;
import io.ddf.engine.LastClose;
import io.ddf.engine.SyncPolicy;
import io.ddf.engine.SyncStats;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.resp.DurabilityBarrier;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * {@code serve --fsync always|everysec|no} (issue 24): the policy the filters are opened with, the
 * {@link DurabilityBarrier} the replies pass ({@link GroupCommit} for {@code always}), what start-up found of each
 * filter's last close, and the lines of {@code INFO persistence}.
 *
 * <ul>
 *   <li>{@code everysec} (the default, Redis's): the filters' changed pages are forced once a second by the
 *       engine's background thread, off the event loops; the replies wait for nothing.</li>
 *   <li>{@code always}: a reply that acknowledges a write leaves once the write is on the device, the writes of many
 *       replies sharing one sync ({@link GroupCommit}); in both execution modes and on the raw feed.</li>
 *   <li>{@code no}: nothing forced while open; the kernel's writeback.</li>
 * </ul>
 */
public final class Durability implements AutoCloseable
{
    private final SyncPolicy policy;
    private final long boundMillis;
    private final PrintStream log;
    private final GroupCommit commit;
    /** Per filter key, how start-up found its file, for the ones that were not closed cleanly. */
    private final Map<String, LastClose> notClean = new ConcurrentSkipListMap<>();
    private volatile int cleanAtStart;

    /**
     * @param policy      the policy.
     * @param boundMillis how long a sync may take before it is logged and counted as delayed.
     * @param log         the daemon's log.
     */
    public Durability(final SyncPolicy policy, final long boundMillis, final PrintStream log)
    {
        this.policy = policy;
        this.boundMillis = boundMillis;
        this.log = log;
        this.commit = policy == SyncPolicy.ALWAYS ? new GroupCommit(boundMillis, log) : null;
        Filters.syncBound(java.time.Duration.ofMillis(boundMillis));
    }

    /**
     * @return the policy the filters are opened and created with: under {@code always} their pages are tracked as
     *         under {@code everysec} (the background thread keeps the files' last sync times fresh), and the group
     *         commit syncs them before the replies leave.
     */
    public SyncPolicy filePolicy()
    {
        return policy == SyncPolicy.ALWAYS ? SyncPolicy.EVERYSEC : policy;
    }

    /** @return what the replies wait for. */
    public DurabilityBarrier barrier()
    {
        return commit != null ? commit : DurabilityBarrier.NONE;
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

    @Override
    public void close()
    {
        if (commit != null)
        {
            commit.close();
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
        if (policy != SyncPolicy.ALWAYS)
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
     * Start-up: says how each filter's file was left, in the log for those not closed cleanly, never silently.
     *
     * @param key    the filter's key.
     * @param filter the filter opened.
     */
    public void opened(final String key, final DuplicateFilter filter)
    {
        final LastClose last = filter.lastClose();
        if (last.kind() == LastClose.Kind.CLEAN || last.kind() == LastClose.Kind.CREATED)
        {
            cleanAtStart++;
            return;
        }
        notClean.put(key, last);
        log.println("ddf: filter '" + key + "' (" + filter.path() + "): " + last.describe(System.currentTimeMillis()));
    }

    /** @return the lines of {@code INFO persistence} about syncing (after the lines Redis's clients read). */
    public List<String> infoLines()
    {
        final SyncStats background = Filters.syncStats();
        final List<String> lines = new ArrayList<>();
        lines.add("ddf_fsync:" + policy.cliName());
        final boolean commits = commit != null && commit.commits() > 0;
        final double lastMs = commits ? commit.lastNanos() / 1e6 : background.lastMillis();
        lines.add(String.format(Locale.ROOT, "last_fsync_ms:%.3f", lastMs));
        lines.add("last_fsync_time:" + (commits ? commit.lastMillis() : background.lastStartMillis()) / 1000);
        final long delayed = background.delayed() + (commit == null ? 0 : commit.delayed());
        final long errors = background.failures() + (commit == null ? 0 : commit.errors());
        lines.add("fsync_delayed:" + delayed);
        lines.add("fsync_errors:" + errors);
        lines.add("last_fsync_status:" + (errors == 0 ? "ok" : "err"));
        lines.add("fsync_warn_ms:" + boundMillis);
        lines.add("group_commits:" + (commit == null ? 0 : commit.commits()));
        lines.add("group_commit_releases:" + (commit == null ? 0 : commit.releases()));
        lines.add("background_sync_cycles:" + background.cycles());
        lines.add(String.format(Locale.ROOT, "background_sync_last_ms:%.3f", background.lastMillis()));
        lines.add("background_sync_last_pages:" + background.lastPages());
        lines.add("filters_clean_at_start:" + cleanAtStart);
        lines.add("filters_not_clean_at_start:" + notClean.size());
        final long now = System.currentTimeMillis();
        for (final Map.Entry<String, LastClose> entry : notClean.entrySet())
        {
            final long since = entry.getValue().lastSync();
            lines.add("not_clean_at_start_" + entry.getKey().replaceAll("[^A-Za-z0-9_.-]", "_") + ":" +
                (since > 0 ? "last_sync=" + Instant.ofEpochMilli(since) + ",may_be_missing_s=" +
                    String.format(Locale.ROOT, "%.1f", (now - since) / 1000.0) : "last_sync=unknown"));
        }
        return lines;
    }
}
