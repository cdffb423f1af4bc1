package io.ddf.ingest.dispatch;

import java.util.function.LongConsumer;

/**
 * One command's counters, Redis's {@code INFO commandstats} meaning: {@code calls} commands run, {@code usec} the
 * time the event loop spent in them, {@code rejected_calls} refused before running (wrong arity), {@code failed_calls}
 * that ran and answered an error on the event loop (an error of work done off it, such as a BF.RESERVE's
 * {@code item exists} found by the creation thread, is not counted: the handler has returned). As in Redis the time
 * excludes waiting: a BF.ADD's time is its dispatch into the pipeline, not the wait for its verdict; a
 * BF.RESERVE's is not the file's creation.
 *
 * <p>Held by its {@link Command}, so the {@link Conductor} records a run without a lookup, and counted per thread
 * ({@link ThreadCounters}), so without a locked instruction; safe from every event loop. The metrics endpoint adds a timer per command ({@link #timer}), told of every run's time.
 */
public final class CommandStats
{
    private static final int CALLS = 0;
    private static final int NANOS = 1;
    private static final int REJECTED = 2;
    private static final int FAILED = 3;

    /** Added to by every event loop without a locked instruction. */
    private final ThreadCounters counters = new ThreadCounters(4);
    /** Told of every run's time in nanoseconds (the metrics endpoint's histogram), or null. */
    private volatile LongConsumer timer;

    /** @param timer told of every run's time from now on, in nanoseconds (at most one; null for none). */
    public void timer(final LongConsumer timer)
    {
        this.timer = timer;
    }

    /**
     * @param nanos  time spent running it.
     * @param failed whether it answered an error.
     */
    void ran(final long nanos, final boolean failed)
    {
        final long[] cells = counters.cells();
        ThreadCounters.add(cells, CALLS, 1);
        ThreadCounters.add(cells, NANOS, nanos);
        if (failed)
        {
            ThreadCounters.add(cells, FAILED, 1);
        }
        final LongConsumer t = timer;
        if (t != null)
        {
            t.accept(nanos);
        }
    }

    /** The command was refused before it ran. */
    void rejected()
    {
        ThreadCounters.add(counters.cells(), REJECTED, 1);
    }

    /** @return commands run. */
    public long calls()
    {
        return counters.sum(CALLS);
    }

    /** @return nanoseconds the event loops spent in them. */
    public long nanos()
    {
        return counters.sum(NANOS);
    }

    /** @return commands refused before they ran. */
    public long rejectedCalls()
    {
        return counters.sum(REJECTED);
    }

    /** @return commands that answered an error. */
    public long failedCalls()
    {
        return counters.sum(FAILED);
    }

    /** Starts every counter again (CONFIG RESETSTAT); the histogram, cumulative by Prometheus's rules, is kept. */
    void reset()
    {
        counters.reset();
    }
}
