package io.ddf.ingest.durability;

import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.log.RateLimitedLog;
import io.ddf.persistence.log.ChangeLog;

import java.io.PrintStream;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The daemon's checkpoints (issue 31, FORMAT-LOG.md "Checkpoints"), on a thread of their own
 * ({@code ddf-checkpoint}): every {@code --checkpoint-seconds}, or sooner once the log since the oldest checkpoint
 * passes {@code --checkpoint-log-bytes}, each filter written through the data directory's log is checkpointed (its
 * changed pages forced, then the position its replay would start from recorded in its header), then the log before
 * the lowest such position is dropped, whole segments at a time. Writers never wait: a checkpoint forces pages while
 * they go on storing (the engine's checkpoint takes no lock a write takes). A filter opened after a crash of the
 * process alone ({@code SAME_BOOT}: its log's unfinished tail was cut at open, so changes the page cache holds may
 * have no record) or without its log is checkpointed soon after start, in the background.
 *
 * <p>A filter is registered before it takes any write, and the drop of the log never passes a registered filter's
 * position; one made while a round dropped the log past its (new) header's position is checkpointed at
 * registration, so that its header never names a position the log no longer holds.
 *
 * <p>Without a log ({@code --fsync no} with the tables live, {@link LiveTables}) the same rounds force each filter's
 * live table into the data directory ({@link LoggedFilter#unlogged}) every {@code --checkpoint-seconds}: there is no
 * position to record and no log to drop, and what a power cut takes is what changed since the last round.
 */
final class Checkpoints implements AutoCloseable
{
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** After a round the log's size started, the least time before the size may start another. */
    private static final long SIZE_ROUND_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ChangeLog log;
    private final long periodNanos;
    private final long logBytes;
    private final PrintStream out;
    private final RateLimitedLog failureLog;
    private final Map<String, LoggedFilter> filters = new ConcurrentHashMap<>();
    private final Set<String> soon = ConcurrentHashMap.newKeySet();
    /** Registration and the log's drop, one at a time (see the class's note). */
    private final Object dropLock = new Object();
    private final Thread thread;
    private final LongAdder checkpoints = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder rounds = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private volatile String lastFailure;
    private volatile long lastStartMillis;
    private volatile long lastNanos;
    private volatile int lastFilters;
    private volatile boolean lastOk = true;
    private final AtomicInteger running = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param log       the data directory's log, or null ({@code --fsync no}: rounds by time only, nothing dropped).
     * @param seconds   {@code --checkpoint-seconds}.
     * @param logBytes  {@code --checkpoint-log-bytes}.
     * @param out       the daemon's log.
     */
    Checkpoints(final ChangeLog log, final long seconds, final long logBytes, final PrintStream out)
    {
        this.log = log;
        this.periodNanos = TimeUnit.SECONDS.toNanos(seconds);
        this.logBytes = logBytes;
        this.out = out;
        this.failureLog = new RateLimitedLog(out::println, 10);
        this.thread = new Thread(this::run, "ddf-checkpoint");
        this.thread.setDaemon(true);
    }

    /**
     * What the checkpoints did, for INFO and the metrics endpoint.
     *
     * @param rounds          rounds (every filter checkpointed, then the log dropped) since start.
     * @param checkpoints     filter checkpoints since start.
     * @param failures        filter checkpoints that failed.
     * @param lastFailure     the last failure's message, or null.
     * @param lastStartMillis when the last round began, epoch ms (0: none yet).
     * @param lastNanos       how long it took.
     * @param lastFilters     filters it checkpointed.
     * @param lastOk          whether every checkpoint of it succeeded.
     * @param running         whether a round runs now.
     * @param position        the lowest position a registered filter may still replay from.
     * @param droppedSegments segment files dropped since start.
     */
    record Stats(long rounds, long checkpoints, long failures, String lastFailure, long lastStartMillis,
        long lastNanos, int lastFilters, boolean lastOk, boolean running, long position, long droppedSegments)
    {
    }

    /** Starts the thread: the filters to checkpoint soon first, then the schedule. */
    void start()
    {
        thread.start();
    }

    /**
     * Checkpoints a filter from now on. Call before it takes a write.
     *
     * @param key    its key.
     * @param filter the filter.
     * @param early  checkpoint it soon (in the background) rather than at the next round.
     */
    void register(final String key, final LoggedFilter filter, final boolean early)
    {
        synchronized (dropLock)
        {
            filters.put(key, filter);
            if (log != null && filter.position() < log.start())
            {
                // made while a round dropped the log past its header's position: move that forward now, before
                // it takes a write (a new filter's pages are on the device already, so this forces a header)
                checkpoint(key, filter);
            }
        }
        if (early)
        {
            soon.add(key);
        }
    }

    /**
     * @param key a key whose filter is about to be closed (deleted, or the daemon stopping): not checkpointed from
     *            now on (a checkpoint under way completes first or finds it closed).
     */
    void unregister(final String key)
    {
        filters.remove(key);
        soon.remove(key);
    }

    /**
     * Checkpoints every filter now, on the calling thread, then drops the log before them.
     *
     * @throws IllegalStateException naming the first filter whose checkpoint failed.
     */
    void all()
    {
        final String failed = round();
        if (failed != null)
        {
            throw new IllegalStateException(failed);
        }
    }

    /** @return the figures now. */
    Stats stats()
    {
        return new Stats(rounds.sum(), checkpoints.sum(), failures.sum(), lastFailure, lastStartMillis, lastNanos,
            lastFilters, lastOk, running.get() > 0, lowest(), dropped.sum());
    }

    private void run()
    {
        long nextRound = System.nanoTime() + periodNanos;
        long sizeAllowed = System.nanoTime();
        while (!closed)
        {
            LockSupport.parkNanos(this, TICK_NANOS); // never interrupted: see DirectoryLog
            if (closed)
            {
                return;
            }
            if (!soon.isEmpty())
            {
                checkpointSoon();
            }
            final long now = System.nanoTime();
            final boolean due = now - nextRound >= 0;
            final boolean big = log != null && now - sizeAllowed >= 0 && log.appended() - lowest() >= logBytes;
            if (due || big)
            {
                round();
                nextRound = System.nanoTime() + periodNanos;
                sizeAllowed = System.nanoTime() + SIZE_ROUND_PAUSE_NANOS;
            }
        }
    }

    private void checkpointSoon()
    {
        for (final String key : soon.toArray(new String[0]))
        {
            final LoggedFilter filter = filters.get(key);
            soon.remove(key);
            if (filter != null)
            {
                checkpoint(key, filter);
            }
        }
        drop();
    }

    /** @return null, or what failed (naming the filter). */
    private String round()
    {
        running.incrementAndGet();
        final long startMillis = System.currentTimeMillis();
        final long started = System.nanoTime();
        String failed = null;
        int count = 0;
        try
        {
            for (final Map.Entry<String, LoggedFilter> entry : filters.entrySet())
            {
                final String why = checkpoint(entry.getKey(), entry.getValue());
                failed = failed == null ? why : failed;
                count++;
            }
            drop();
        }
        catch (final RuntimeException e)
        {
            failed = failed == null ? "dropping the change log failed: " + OneLine.of(e) : failed;
        }
        finally
        {
            running.decrementAndGet();
        }
        rounds.increment();
        lastStartMillis = startMillis;
        lastNanos = System.nanoTime() - started;
        lastFilters = count;
        lastOk = failed == null;
        return failed;
    }

    /** @return null, or why the filter's checkpoint failed. */
    private String checkpoint(final String key, final LoggedFilter filter)
    {
        try
        {
            filter.checkpoint();
            checkpoints.increment();
            return null;
        }
        catch (final IllegalStateException closedMeanwhile)
        {
            filters.remove(key, filter);
            return null;
        }
        catch (final RuntimeException e)
        {
            failures.increment();
            final String why = "the checkpoint of filter '" + key + "' failed: " + OneLine.of(e);
            lastFailure = why;
            failureLog.log("ddf: " + why + " (its log is kept; tried again at the next checkpoint)");
            return why;
        }
    }

    /** Deletes the log's segments before the lowest position a registered filter may replay from. */
    private void drop()
    {
        if (log == null)
        {
            return;
        }
        synchronized (dropLock)
        {
            dropped.add(log.dropBefore(lowest()));
        }
    }

    /**
     * @return the lowest position a registered filter may replay from (the appended position when none; 0 without a
     *         log).
     */
    private long lowest()
    {
        if (log == null)
        {
            return 0;
        }
        long lowest = log.appended();
        for (final LoggedFilter filter : filters.values())
        {
            lowest = Math.min(lowest, filter.position());
        }
        return lowest;
    }

    /** Stops the thread once its checkpoint under way is done. */
    @Override
    public void close()
    {
        closed = true;
        LockSupport.unpark(thread);
        if (thread.isAlive() && Thread.currentThread() != thread)
        {
            try
            {
                thread.join(TimeUnit.MINUTES.toMillis(1));
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
        out.flush();
    }
}
