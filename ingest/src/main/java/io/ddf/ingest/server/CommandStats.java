package io.ddf.ingest.server;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * One command's counters, Redis's {@code INFO commandstats} meaning: {@code calls} commands run, {@code usec} the
 * time the event loop spent in them, {@code rejected_calls} refused before running (wrong arity), {@code failed_calls}
 * that ran and answered an error on the event loop (an error of work done off it, such as a BF.RESERVE's
 * {@code item exists} found by the creation thread, is not counted: the handler has returned). As in Redis the time
 * excludes waiting: a BF.ADD's time is its dispatch into the pipeline, not the wait for its verdict; a
 * BF.RESERVE's is not the file's creation.
 *
 * <p>Held by its {@link Command}, so the {@link Conductor} records a run without a lookup; safe from every event
 * loop. The metrics endpoint adds a timer per command ({@link #timer}), told of every run's time.
 */
final class CommandStats
{
    final LongAdder calls = new LongAdder();
    final LongAdder nanos = new LongAdder();
    final LongAdder rejected = new LongAdder();
    final LongAdder failed = new LongAdder();
    /** Told of every run's time in nanoseconds (the metrics endpoint's histogram), or null. */
    private volatile LongConsumer timer;

    /** @param timer told of every run's time from now on, in nanoseconds (at most one; null for none). */
    void timer(final LongConsumer timer)
    {
        this.timer = timer;
    }

    /**
     * @param nanos  time spent running it.
     * @param failed whether it answered an error.
     */
    void ran(final long nanos, final boolean failed)
    {
        calls.increment();
        this.nanos.add(nanos);
        if (failed)
        {
            this.failed.increment();
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
        rejected.increment();
    }

    /** Starts every counter again (CONFIG RESETSTAT); the histogram, cumulative by Prometheus's rules, is kept. */
    void reset()
    {
        calls.reset();
        nanos.reset();
        rejected.reset();
        failed.reset();
    }
}
