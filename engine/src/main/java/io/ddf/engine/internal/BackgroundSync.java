package io.ddf.engine.internal;

import io.ddf.persistence.Syncable;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The thread that forces files of other kinds (the filters that grow: scaling chains, cuckoo filters, registered
 * through {@link #register(Syncable)} by the daemon) once a second, each when it changed since the last cycle, off the
 * threads that stream. One daemon thread per process, started by the first registration and ended when the last file
 * leaves. The fixed-size filters no longer come here: under {@code everysec} they are written through a change log
 * (issue 31, {@link io.ddf.engine.changelog.LogScheduler}), and their pages are forced by checkpoints.
 */
public final class BackgroundSync
{
    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final System.Logger LOG = System.getLogger("io.ddf.engine.sync");
    private static final Set<Syncable> OTHERS = ConcurrentHashMap.newKeySet();
    private static final Object LOCK = new Object();
    private static Thread thread;

    private static final AtomicLong CYCLES = new AtomicLong();
    private static final AtomicLong DELAYED = new AtomicLong();
    private static final AtomicLong FAILURES = new AtomicLong();
    private static volatile long boundNanos = PERIOD_NANOS;
    private static volatile boolean paused;
    private static volatile Stats last = new Stats(0, 0, 0, 0, 0, 0, 0, null, PERIOD_NANOS);
    private static long lastLogNanos = System.nanoTime() - LOG_INTERVAL_NANOS;

    private BackgroundSync()
    {
    }

    /**
     * What the background syncs did, for reports ({@code INFO persistence}).
     *
     * @param cycles          cycles run since the process started.
     * @param lastNanos       how long the last cycle took.
     * @param lastStartMillis when it started, epoch milliseconds (0 before the first).
     * @param lastFilters     filters it forced (the others were unchanged).
     * @param lastPages       changed pages it forced.
     * @param delayed         cycles that took longer than the bound.
     * @param failures        syncs that failed.
     * @param lastFailure     the last failure's message, or null.
     * @param boundNanos      the bound.
     */
    public record Stats(long cycles, long lastNanos, long lastStartMillis, int lastFilters, long lastPages,
        long delayed, long failures, String lastFailure, long boundNanos)
    {
    }

    /** @return the counters now. */
    public static Stats stats()
    {
        final Stats s = last;
        return new Stats(CYCLES.get(), s.lastNanos(), s.lastStartMillis(), s.lastFilters(), s.lastPages(),
            DELAYED.get(), FAILURES.get(), s.lastFailure(), boundNanos);
    }

    /**
     * @param nanos how long a cycle may take before it counts as delayed and is logged; positive.
     */
    public static void bound(final long nanos)
    {
        if (nanos <= 0)
        {
            throw new IllegalArgumentException("the sync bound must be positive, not " + nanos + " ns");
        }
        boundNanos = nanos;
    }

    /**
     * Skips the cycles while paused: for a benchmark that measures what the page marks alone cost the streaming
     * thread (a sync makes the next store into each page it forced take a page fault: the kernel write-protects
     * pages as it writes them back). Not for production use.
     *
     * @param pause whether to skip the cycles from now on.
     */
    public static void pause(final boolean pause)
    {
        paused = pause;
    }

    /**
     * Syncs a file of another kind once a second from now on, when it changed, until {@link #unregister(Syncable)}.
     *
     * @param file the file.
     */
    public static void register(final Syncable file)
    {
        OTHERS.add(file);
        start();
    }

    /** @param file a file {@link #register(Syncable)} took: no longer synced by this thread. */
    public static void unregister(final Syncable file)
    {
        OTHERS.remove(file);
    }

    private static void start()
    {
        synchronized (LOCK)
        {
            if (thread == null)
            {
                thread = new Thread(BackgroundSync::loop, "ddf-sync");
                thread.setDaemon(true);
                thread.start();
            }
        }
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
                if (OTHERS.isEmpty())
                {
                    thread = null;
                    return;
                }
            }
            if (!paused)
            {
                runOnce();
            }
        }
    }

    /**
     * One cycle, now, on the calling thread: syncs every registered filter. The thread calls it once a second; tests
     * and a process that wants everything forced now may call it too.
     *
     * @return the cycle's figures.
     */
    public static Stats runOnce()
    {
        final long startMillis = System.currentTimeMillis();
        final long start = System.nanoTime();
        final String[] failure = {last.lastFailure()};
        int synced = 0;
        final long pages = 0;
        for (final Syncable other : OTHERS)
        {
            try
            {
                if (other.sync() >= 0)
                {
                    synced++;
                }
            }
            catch (final RuntimeException e)
            {
                FAILURES.incrementAndGet();
                failure[0] = other.path() + ": " + e.getMessage();
                log("sync failed, the changes stay marked for the next second: " + failure[0]);
            }
        }
        final long took = System.nanoTime() - start;
        CYCLES.incrementAndGet();
        if (took > boundNanos)
        {
            DELAYED.incrementAndGet();
            log("syncing " + synced + " changed filters (" + pages + " pages) took " +
                TimeUnit.NANOSECONDS.toMillis(took) + " ms, more than the bound of " +
                TimeUnit.NANOSECONDS.toMillis(boundNanos) + " ms: is the disk busy?");
        }
        last = new Stats(0, took, startMillis, synced, pages, 0, 0, failure[0], 0);
        return stats();
    }

    private static void log(final String message)
    {
        final long now = System.nanoTime();
        synchronized (LOCK)
        {
            if (now - lastLogNanos < LOG_INTERVAL_NANOS)
            {
                return;
            }
            lastLogNanos = now;
        }
        LOG.log(System.Logger.Level.WARNING, "ddf: " + message + " (logged at most once per 10 s; see the counters " +
            "in INFO persistence)");
    }
}
