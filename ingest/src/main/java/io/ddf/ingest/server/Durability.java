package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Filters;
import io.ddf.engine.LastClose;
import io.ddf.engine.SyncPolicy;
import io.ddf.engine.SyncStats;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code serve --fsync always|everysec|no} (issue 24), in one place: the policy the filters are opened with, the
 * group commit of {@code always}, what start-up found of each filter's last close, and the lines of
 * {@code INFO persistence}.
 *
 * <ul>
 *   <li>{@code everysec} (the default, Redis's): the filters' changed pages are forced once a second by the
 *       engine's background thread, off the event loops.</li>
 *   <li>{@code always}: the write commands name the filters they wrote ({@link #touch}); a connection with replies
 *       to write queues them ({@link #deferUntilSynced}) behind one sync per event loop round: after the loop has
 *       read every ready connection, the filters written in the round are synced once each, then the replies leave
 *       (a group commit across connections, as Redis's appendfsync always shares one fsync per iteration). The
 *       request path being rewritten (issue 20) offers one seam for it; until it lands RespConnection calls this
 *       class. Inline execution only: serve refuses {@code always} with the pipeline, whose verdicts come back after
 *       the read, and with the raw feed.</li>
 *   <li>{@code no}: nothing forced while open; the kernel's writeback.</li>
 * </ul>
 * A sync slower than {@code --fsync-warn-ms} is logged (at most once per 10 s) and counted ({@code fsync_delayed}).
 */
final class Durability
{
    private final SyncPolicy policy;
    private final long boundNanos;
    private final PrintStream log;
    private final RateLimitedLog slowLog;
    private final ThreadLocal<List<DuplicateFilter>> touched = ThreadLocal.withInitial(ArrayList::new);
    /** Per event loop: the connections whose replies wait for the loop's next group commit. */
    private final ThreadLocal<List<java.util.function.Consumer<Boolean>>> waiting =
        ThreadLocal.withInitial(ArrayList::new);
    private final LongAdder commits = new LongAdder();
    private final LongAdder delayed = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private volatile long lastCommitNanos;
    private volatile long lastCommitMillis;
    private volatile String lastError;
    /** Per filter key, how start-up found its file, for the ones that were not closed cleanly. */
    private final Map<String, LastClose> notClean = new ConcurrentSkipListMap<>();
    private volatile int cleanAtStart;

    /**
     * @param policy    the policy.
     * @param boundMs   how long a sync may take before it is logged and counted as delayed.
     * @param log       the daemon's log.
     */
    Durability(final SyncPolicy policy, final long boundMs, final PrintStream log)
    {
        this.policy = policy;
        this.boundNanos = TimeUnit.MILLISECONDS.toNanos(boundMs);
        this.log = log;
        this.slowLog = new RateLimitedLog(log::println, TimeUnit.SECONDS.toNanos(10));
        Filters.syncBound(java.time.Duration.ofMillis(boundMs));
    }

    /** @return the policy. */
    SyncPolicy policy()
    {
        return policy;
    }

    /**
     * @return the policy the filters are opened and created with: {@code always} tracks their pages as
     *         {@code everysec} does (the background thread keeps the files' last sync times fresh), and the daemon
     *         syncs them itself before each read's replies.
     */
    SyncPolicy filePolicy()
    {
        return policy == SyncPolicy.ALWAYS ? SyncPolicy.EVERYSEC : policy;
    }

    /**
     * A write command changed this filter, on this event loop: under {@code always}, the next
     * {@link #beforeFlush()} on this thread syncs it.
     *
     * @param filter the filter written.
     */
    void touch(final DuplicateFilter filter)
    {
        if (policy != SyncPolicy.ALWAYS)
        {
            return;
        }
        final List<DuplicateFilter> filters = touched.get();
        for (int i = 0; i < filters.size(); i++)
        {
            if (filters.get(i) == filter)
            {
                return;
            }
        }
        filters.add(filter);
    }

    /**
     * Under {@code always}, when this event loop wrote since its last group commit: queues the caller's replies behind
     * one sync that runs once the loop has processed this round's reads (a task on the loop: Netty runs tasks after
     * the ready channels), so that every connection served in the round shares it, as Redis's appendfsync always
     * shares one fsync per event loop iteration. Returns false when there is nothing to wait for: write now.
     *
     * @param loop  the caller's event loop.
     * @param after called on the loop once the sync ran: true when it succeeded.
     * @return whether the replies wait.
     */
    boolean deferUntilSynced(final java.util.concurrent.Executor loop, final java.util.function.Consumer<Boolean> after)
    {
        if (policy != SyncPolicy.ALWAYS || touched.get().isEmpty() && waiting.get().isEmpty())
        {
            return false;
        }
        final List<java.util.function.Consumer<Boolean>> queue = waiting.get();
        queue.add(after);
        if (queue.size() == 1)
        {
            loop.execute(this::commitRound);
        }
        return true;
    }

    /** On the event loop, after its round of reads: one sync of what it wrote, then the waiting replies. */
    private void commitRound()
    {
        final List<java.util.function.Consumer<Boolean>> queue = waiting.get();
        final List<java.util.function.Consumer<Boolean>> round = new ArrayList<>(queue);
        queue.clear();
        boolean synced = true;
        try
        {
            beforeFlush();
        }
        catch (final RuntimeException e)
        {
            synced = false;
        }
        for (final java.util.function.Consumer<Boolean> after : round)
        {
            after.accept(synced);
        }
    }

    /**
     * Under {@code always}: syncs every filter written on this thread since the last call, before the replies that
     * acknowledge those writes leave. Returns at once otherwise.
     *
     * @throws RuntimeException when a sync fails: the replies must not leave as if the writes were durable.
     */
    void beforeFlush()
    {
        if (policy != SyncPolicy.ALWAYS)
        {
            return;
        }
        final List<DuplicateFilter> filters = touched.get();
        if (filters.isEmpty())
        {
            return;
        }
        final long start = System.nanoTime();
        try
        {
            for (int i = 0; i < filters.size(); i++)
            {
                filters.get(i).sync();
            }
        }
        catch (final RuntimeException e)
        {
            errors.increment();
            lastError = OneLine.of(e);
            log.println("ddf: fsync failed, the replies of the commands that wrote are withheld and their " +
                "connection closed: " + lastError);
            throw e;
        }
        finally
        {
            filters.clear();
        }
        final long took = System.nanoTime() - start;
        commits.increment();
        lastCommitNanos = took;
        lastCommitMillis = System.currentTimeMillis();
        if (took > boundNanos)
        {
            delayed.increment();
            slowLog.log("ddf: a group commit took " + TimeUnit.NANOSECONDS.toMillis(took) + " ms, more than " +
                "--fsync-warn-ms " + TimeUnit.NANOSECONDS.toMillis(boundNanos) + ": is the disk busy?");
        }
    }

    /**
     * Start-up: says how each filter's file was left, in the log for those not closed cleanly, never silently.
     *
     * @param key    the filter's key.
     * @param filter the filter opened.
     */
    void opened(final String key, final DuplicateFilter filter)
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
    List<String> infoLines()
    {
        final SyncStats background = Filters.syncStats();
        final List<String> lines = new ArrayList<>();
        lines.add("ddf_fsync:" + policy.cliName());
        final boolean always = policy == SyncPolicy.ALWAYS;
        final double lastMs = always && commits.sum() > 0 ? lastCommitNanos / 1e6 : background.lastMillis();
        lines.add(String.format(Locale.ROOT, "last_fsync_ms:%.3f", lastMs));
        lines.add("last_fsync_time:" + (always && commits.sum() > 0 ? lastCommitMillis / 1000 :
            background.lastStartMillis() / 1000));
        lines.add("fsync_delayed:" + (delayed.sum() + background.delayed()));
        lines.add("fsync_errors:" + (errors.sum() + background.failures()));
        lines.add("last_fsync_status:" + (errors.sum() + background.failures() == 0 ? "ok" : "err"));
        lines.add("fsync_warn_ms:" + TimeUnit.NANOSECONDS.toMillis(boundNanos));
        lines.add("group_commits:" + commits.sum());
        lines.add("background_sync_cycles:" + background.cycles());
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
