package io.ddf.engine.changelog;

import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.Checkpoint;
import io.ddf.persistence.log.LogUnavailableException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The embedded filters' own small scheduler (issue 31): one daemon thread per process, {@code ddf-log}, started when
 * the first filter with a log of its own registers and ended when the last one leaves. Once a second it forces each
 * {@code everysec} filter's log (off the streaming threads), and checkpoints a filter every
 * {@value #CHECKPOINT_SECONDS} s, or sooner once its log since the last checkpoint passes {@value #CHECKPOINT_LOG_MIB}
 * MiB, then deletes the log's segments before the checkpoint. The daemon has its own scheduler (its options) and does
 * not use this one.
 *
 * <p>Why these defaults: a checkpoint forces every page the filter changed since the last one, and at a second's
 * worth of random adds into a large table that is most of its pages; a minute between checkpoints makes that cost
 * rare while the log stays bounded (at a few million records a second, 64 MiB is two million records: a checkpoint
 * every ten seconds or so at full speed, and a replay of at most those records).
 */
public final class LogScheduler
{
    /** Seconds between two checkpoints of a filter. */
    public static final int CHECKPOINT_SECONDS = 60;
    /** MiB of log since a filter's last checkpoint that trigger its next one early. */
    public static final int CHECKPOINT_LOG_MIB = 64;

    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final System.Logger LOG = System.getLogger("io.ddf.engine.changelog");
    private static final Map<FilterLog, Entry> ENTRIES = new ConcurrentHashMap<>();
    private static final Object LOCK = new Object();
    private static final AtomicLong CHECKPOINTS = new AtomicLong();
    private static final AtomicLong FAILURES = new AtomicLong();
    private static Thread thread;
    private static volatile String lastFailure;

    private LogScheduler()
    {
    }

    /** One filter's schedule. */
    private static final class Entry
    {
        private final FilterLog log;
        private final boolean forceEverySecond;
        private final Supplier<Checkpoint> checkpointer;
        private long lastCheckpointNanos = System.nanoTime();

        Entry(final FilterLog log, final boolean forceEverySecond, final Supplier<Checkpoint> checkpointer)
        {
            this.log = log;
            this.forceEverySecond = forceEverySecond;
            this.checkpointer = checkpointer;
        }
    }

    /**
     * What the scheduler did, for reports.
     *
     * @param checkpoints checkpoints taken since the process started.
     * @param failures    forces and checkpoints that failed.
     * @param lastFailure the last failure's message, or null.
     */
    public record Stats(long checkpoints, long failures, String lastFailure)
    {
    }

    /** @return the counters now. */
    public static Stats stats()
    {
        return new Stats(CHECKPOINTS.get(), FAILURES.get(), lastFailure);
    }

    /**
     * @param log              a filter's binding to its own log.
     * @param forceEverySecond whether to force the log once a second (policy everysec).
     * @param checkpointer     checkpoints the filter (fails once it is closing).
     */
    public static void register(final FilterLog log, final boolean forceEverySecond,
        final Supplier<Checkpoint> checkpointer)
    {
        ENTRIES.put(log, new Entry(log, forceEverySecond, checkpointer));
        synchronized (LOCK)
        {
            if (thread == null)
            {
                thread = new Thread(LogScheduler::loop, "ddf-log");
                thread.setDaemon(true);
                thread.start();
            }
        }
    }

    /** @param log a binding {@link #register} took: no longer forced or checkpointed from now on. */
    public static void unregister(final FilterLog log)
    {
        ENTRIES.remove(log);
    }

    private static void loop()
    {
        long next = System.nanoTime() + PERIOD_NANOS;
        while (true)
        {
            final long wait = next - System.nanoTime();
            if (wait > 0)
            {
                try
                {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                catch (final InterruptedException e)
                {
                    // a daemon thread: nothing interrupts it on purpose; keep the cadence
                }
            }
            next = Math.max(next + PERIOD_NANOS, System.nanoTime());
            synchronized (LOCK)
            {
                if (ENTRIES.isEmpty())
                {
                    thread = null;
                    return;
                }
            }
            runOnce(false);
        }
    }

    /**
     * One cycle now, on the calling thread (the thread calls it once a second; tests call it too).
     *
     * @param checkpointAll checkpoint every filter, due or not.
     */
    public static void runOnce(final boolean checkpointAll)
    {
        final List<Entry> entries = new ArrayList<>(ENTRIES.values());
        final long now = System.nanoTime();
        for (final Entry entry : entries)
        {
            final ChangeLog log = entry.log.log();
            try
            {
                if (entry.forceEverySecond)
                {
                    log.force(log.appended());
                }
                final boolean due = checkpointAll || now - entry.lastCheckpointNanos >=
                    TimeUnit.SECONDS.toNanos(CHECKPOINT_SECONDS) || log.appended() - entry.log.checkpointPosition() >=
                    (long)CHECKPOINT_LOG_MIB << 20;
                if (due)
                {
                    entry.checkpointer.get();
                    entry.lastCheckpointNanos = now;
                    CHECKPOINTS.incrementAndGet();
                    log.dropBefore(entry.log.checkpointPosition());
                }
            }
            catch (final IllegalStateException closing)
            {
                ENTRIES.remove(entry.log); // closed meanwhile
            }
            catch (final LogUnavailableException | io.ddf.persistence.FilterFileException e)
            {
                FAILURES.incrementAndGet();
                lastFailure = e.getMessage();
                LOG.log(System.Logger.Level.WARNING, "ddf: " + e.getMessage() + " (tried again in a second)");
            }
        }
    }
}
