package io.ddf.ingest.durability;

import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.log.RateLimitedLog;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.LogOptions;
import io.ddf.persistence.log.LogUnavailableException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The data directory's change log (issue 31, FORMAT-LOG.md), {@code <data-dir>/log/}: opened at start (its torn tail
 * cut, and said), forced once a second under {@code everysec} by a thread of its own ({@code ddf-log}), never by an
 * event loop, and watched: while it cannot be written (a full disk, an I/O error: {@link ChangeLog#failure()}) writes
 * are refused ({@link #refusal()}, Redis's {@code MISCONF} for an AOF it cannot write), the same thread tries again
 * every {@value #RETRY_MILLIS} ms, and once the log takes writes again every filter is checkpointed before writes
 * resume: an add refused meanwhile may have reached a table without its record, and a later add of the same item
 * would be judged a duplicate and append none; the checkpoint puts such changes on the device.
 */
final class DirectoryLog implements AutoCloseable
{
    /** The log's directory in the data directory. */
    static final String DIRECTORY = "log";
    static final long RETRY_MILLIS = 250;
    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ChangeLog log;
    private final Path dataDir;
    private final boolean everySecond;
    private final long boundNanos;
    private final PrintStream out;
    private final RateLimitedLog slowLog;
    private final RateLimitedLog failureLog;
    private final LongAdder delayed = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final Thread thread;
    /** Checkpoints every filter: run once the log takes writes again, before the refusal ends. */
    private volatile Runnable recovered = () -> { };
    /** The refusal while the log cannot be written, or until the checkpoint after it is done; null otherwise. */
    private volatile String refusal;
    /** Told each change of {@link #refusal} (the conductor's gate for commands flagged write). */
    private volatile java.util.function.Consumer<String> refusals = r -> { };
    private volatile boolean forcing;
    private volatile boolean closed;

    private DirectoryLog(final ChangeLog log, final Path dataDir, final boolean everySecond, final long boundMillis,
        final PrintStream out)
    {
        this.log = log;
        this.dataDir = dataDir;
        this.everySecond = everySecond;
        this.boundNanos = TimeUnit.MILLISECONDS.toNanos(boundMillis);
        this.out = out;
        this.slowLog = new RateLimitedLog(out::println, 10);
        this.failureLog = new RateLimitedLog(out::println, 10);
        this.thread = new Thread(this::run, "ddf-log");
        this.thread.setDaemon(true);
    }

    /**
     * Opens (or creates) the data directory's log, cutting its torn tail, and says what it found.
     *
     * @param dataDir      the data directory (locked by the caller).
     * @param segmentBytes record bytes per segment file.
     * @param everySecond  whether to force it once a second ({@code everysec}); under {@code always} the replies'
     *                     group commit forces it.
     * @param boundMillis  a force slower than this is logged and counted ({@code --fsync-warn-ms}).
     * @param out          the daemon's log.
     * @return the log, its thread not started yet ({@link #start}).
     */
    static DirectoryLog open(final Path dataDir, final long segmentBytes, final boolean everySecond,
        final long boundMillis, final PrintStream out)
    {
        final ChangeLog log = ChangeLog.open(dataDir.resolve(DIRECTORY),
            LogOptions.DEFAULT.withSegmentBytes(segmentBytes));
        out.println("ddf: " + log.openReport().describe() + " (" + log.directory() + ")" +
            (log.openReport().cutBytes() > 0 && !log.openReport().created() ? "; " + log.openReport().cutBytes() +
                " bytes after its end not used (a torn tail or preallocated space)" : ""));
        return new DirectoryLog(log, dataDir, everySecond, boundMillis, out);
    }

    /**
     * Starts the thread that forces and watches the log.
     *
     * @param whenRecovered checkpoints every filter; run before writes resume after a failure.
     */
    void start(final Runnable whenRecovered)
    {
        this.recovered = whenRecovered;
        thread.start();
    }

    /** @return the log. */
    ChangeLog log()
    {
        return log;
    }

    /**
     * @return the error a write gets now (Redis's {@code MISCONF} wording for an AOF it cannot write, naming the
     *         data directory and why), or null when writes may go on. Two volatile reads when they may.
     */
    String refusal()
    {
        final String held = refusal;
        if (held != null)
        {
            return held;
        }
        final LogUnavailableException failure = log.failure();
        return failure == null ? null : refusalOf(failure);
    }

    /**
     * @param listener told the refusal now, then each time writes are refused or resume (null): what the commands'
     *                 path reads, instead of asking this class on every write.
     */
    void onRefusal(final java.util.function.Consumer<String> listener)
    {
        refusals = listener;
        listener.accept(refusal());
        // a failure is refused on the thread that meets it, before this thread's next look; its clearing by a retry
        // is not a resume (the checkpoint after it is: recover)
        log.onFailure(failed ->
        {
            if (failed != null)
            {
                final String held = refusal;
                listener.accept(held != null ? held : refusalOf(failed));
            }
        });
    }

    String refusalOf(final LogUnavailableException failure)
    {
        return "MISCONF Errors writing to the change log of data directory " + dataDir + ": " +
            OneLine.of(failure) + "; writes are refused until it can be written again (reads go on)";
    }

    /** @return forces slower than {@code --fsync-warn-ms}. */
    long delayed()
    {
        return delayed.sum();
    }

    /** @return forces and retries that failed. */
    long errors()
    {
        return errors.sum();
    }

    /** @return whether a force by this thread is under way (INFO's {@code aof_pending_bio_fsync}). */
    boolean forcing()
    {
        return forcing;
    }

    /** @return whether writes are refused now. */
    boolean refusing()
    {
        return refusal() != null;
    }

    private void run()
    {
        long next = System.nanoTime() + PERIOD_NANOS;
        while (!closed)
        {
            final boolean failing = refusal != null || log.failure() != null;
            final long wait = failing ? TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS) : next - System.nanoTime();
            if (wait > 0)
            {
                // parked, never interrupted: an interrupt during a force would close the segment's channel
                LockSupport.parkNanos(this, wait);
            }
            if (closed)
            {
                return;
            }
            if (refusal != null || log.failure() != null)
            {
                recover();
                continue;
            }
            next = Math.max(next + PERIOD_NANOS, System.nanoTime());
            if (everySecond)
            {
                forceNow();
            }
        }
    }

    /** One force of everything appended, timed. */
    private void forceNow()
    {
        final long end = log.appended();
        if (log.forced() >= end)
        {
            return;
        }
        final long started = System.nanoTime();
        forcing = true;
        try
        {
            log.force(end);
        }
        catch (final LogUnavailableException e)
        {
            errors.increment(); // failure() says why from now on: the next turn refuses and retries
            return;
        }
        finally
        {
            forcing = false;
        }
        final long took = System.nanoTime() - started;
        if (took > boundNanos)
        {
            delayed.increment();
            slowLog.log("ddf: forcing the change log took " + TimeUnit.NANOSECONDS.toMillis(took) + " ms, more " +
                "than --fsync-warn-ms " + TimeUnit.NANOSECONDS.toMillis(boundNanos) + ": is the disk busy?");
        }
    }

    /** While the log cannot be written: refuse writes, try again, and once it can, checkpoint and resume. */
    private void recover()
    {
        final LogUnavailableException failure = log.failure();
        if (refusal == null && failure != null)
        {
            refusal = refusalOf(failure);
            refusals.accept(refusal);
            errors.increment();
            out.println("ddf: " + OneLine.of(failure) + ": writes are refused (MISCONF) until it can be " +
                "written again; reads go on");
        }
        if (!log.retry())
        {
            return;
        }
        try
        {
            recovered.run();
        }
        catch (final RuntimeException e)
        {
            errors.increment();
            failureLog.log("ddf: the change log can be written again, but checkpointing the filters failed (" +
                OneLine.of(e) + "): writes stay refused, tried again in " + RETRY_MILLIS + " ms");
            return;
        }
        refusal = null;
        refusals.accept(null);
        out.println("ddf: the change log " + log.directory() + " can be written again and every filter was " +
            "checkpointed: writes resume");
    }

    /** Stops the thread (after its force under way); the log itself is closed by {@link #close()}. */
    void stop()
    {
        closed = true;
        LockSupport.unpark(thread);
        if (thread.isAlive() && Thread.currentThread() != thread)
        {
            try
            {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops the thread and closes the log (forced, its last segment shortened). Call once every filter is closed. */
    @Override
    public void close()
    {
        stop();
        log.close();
    }
}
