package io.ddf.ingest.durability;

import io.ddf.engine.LastClose;
import io.ddf.persistence.log.Recovery;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * What start-up found of each filter and did about it, said in the daemon's log (a line per filter) and in
 * {@code INFO persistence}: through the change log (FORMAT-LOG.md, "Opening a filter written through a log") closed
 * cleanly, nothing to replay; not closed cleanly but the machine did not restart (same kernel boot id: the page cache
 * kept every change), nothing to replay; replayed N records in T ms; or no log to replay from (changes since its
 * checkpoint may be missing). Under {@code --fsync no} no filter is written through the log, and a file not closed
 * cleanly is said as before the log (when it was last synced).
 */
final class Restarts
{
    private final PrintStream out;
    /** The filters not closed cleanly, by key: the INFO line of each. */
    private final Map<String, String> notClean = new ConcurrentSkipListMap<>();
    private volatile int clean;
    private volatile int sameBoot;
    private volatile int replayed;
    private volatile int noLog;
    private volatile long records;
    private volatile long replayNanos;

    Restarts(final PrintStream out)
    {
        this.out = out;
    }

    /**
     * A filter written through the change log was opened at start.
     *
     * @param key      its key.
     * @param path     its file.
     * @param recovery what its open did.
     * @return whether it should be checkpointed soon: opened after a crash of the process alone (the log's tail cut
     *         at open may have held records of changes the page cache has and the device may not) or without its log.
     */
    synchronized boolean opened(final String key, final Path path, final Recovery recovery)
    {
        out.println("ddf: filter '" + key + "' (" + path + "): " + recovery.describe());
        switch (recovery.outcome())
        {
            case SAME_BOOT -> sameBoot++;
            case REPLAYED ->
            {
                replayed++;
                records += recovery.records();
                replayNanos += recovery.nanos();
            }
            case NO_LOG -> noLog++;
            default ->
            {
                clean++;
                return false;
            }
        }
        notClean.put(infoKey(key), String.format(Locale.ROOT, "recovery=%s,records=%d,replay_ms=%.1f,checkpoint=%d," +
            "log_end=%d", recovery.outcome().name().toLowerCase(Locale.ROOT), recovery.records(), recovery.millis(),
            recovery.checkpoint(), recovery.end()));
        return recovery.outcome() != Recovery.Outcome.REPLAYED;
    }

    /**
     * A filter not written through a log ({@code --fsync no}) was opened at start: said when it was not closed
     * cleanly, as before the log.
     *
     * @param key  its key.
     * @param path its file.
     * @param last how its file was left.
     */
    synchronized void opened(final String key, final Path path, final LastClose last)
    {
        if (last.kind() == LastClose.Kind.CLEAN || last.kind() == LastClose.Kind.CREATED)
        {
            clean++;
            return;
        }
        out.println("ddf: filter '" + key + "' (" + path + "): " + last.describe(System.currentTimeMillis()));
        final long since = last.lastSync();
        notClean.put(infoKey(key), "recovery=not_logged," + (since > 0 ? "last_sync=" + Instant.ofEpochMilli(since) +
            ",may_be_missing_s=" + String.format(Locale.ROOT, "%.1f", (System.currentTimeMillis() - since) / 1000.0) :
            "last_sync=unknown"));
    }

    private static String infoKey(final String key)
    {
        return key.replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    /** @return records replayed at start, in every filter. */
    long records()
    {
        return records;
    }

    /** @return time spent replaying at start, nanoseconds. */
    long replayNanos()
    {
        return replayNanos;
    }

    /** @return filters that replayed at start. */
    int replayed()
    {
        return replayed;
    }

    /** @return the lines of {@code INFO persistence} about start-up. */
    synchronized List<String> infoLines()
    {
        final List<String> lines = new ArrayList<>();
        lines.add("filters_clean_at_start:" + clean);
        lines.add("filters_not_clean_at_start:" + notClean.size());
        lines.add("filters_same_boot_at_start:" + sameBoot);
        lines.add("filters_replayed_at_start:" + replayed);
        lines.add("filters_without_log_at_start:" + noLog);
        lines.add("replayed_records_at_start:" + records);
        lines.add(String.format(Locale.ROOT, "replay_ms_at_start:%.1f", replayNanos / 1e6));
        lines.add(String.format(Locale.ROOT, "replay_records_per_sec_at_start:%.0f",
            replayNanos == 0 ? 0.0 : records * 1e9 / replayNanos));
        notClean.forEach((key, value) -> lines.add("not_clean_at_start_" + key + ":" + value));
        return lines;
    }
}
