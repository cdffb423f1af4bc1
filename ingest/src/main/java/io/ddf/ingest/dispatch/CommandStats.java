package io.ddf.ingest.dispatch;

import io.netty.util.concurrent.FastThreadLocal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongConsumer;

/**
 * One command's counters, Redis's {@code INFO commandstats} meaning: {@code calls} commands run, {@code usec} the
 * time the event loop spent in them, {@code rejected_calls} refused before running (wrong arity), {@code failed_calls}
 * that ran and answered an error on the event loop (an error of work done off it, such as a BF.RESERVE's
 * {@code item exists} found by the creation thread, is not counted: the handler has returned). As in Redis the time
 * excludes waiting: a BF.ADD's time is its dispatch into the pipeline, not the wait for its verdict; a
 * BF.RESERVE's is not the file's creation.
 *
 * <p>Held by its {@link Command}, so the {@link Conductor} records a run without a lookup, and counted per thread,
 * so without a locked instruction; safe from every event loop: each thread adds to cells of its own (a plain read
 * and an opaque write, found through Netty's FastThreadLocal, an array index on an event loop), and a reader sums
 * every thread's cells. {@code LongAdder}, which these replace on the request path, takes a compare-and-swap per add
 * even uncontended: three per command. {@link #reset} keeps the sums monotonic: it records them as the new zero
 * rather than writing another thread's cells. The metrics endpoint adds a timer per command ({@link #timer}), told
 * of every run's time.
 */
public final class CommandStats
{
    private static final int CALLS = 0;
    private static final int NANOS = 1;
    private static final int REJECTED = 2;
    private static final int FAILED = 3;
    private static final int WIDTH = 4;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    /** Every thread's cells, added to by that thread only. */
    private final List<long[]> all = new CopyOnWriteArrayList<>();
    /** The sums at the last {@link #reset}. */
    private final long[] zero = new long[WIDTH];
    private final FastThreadLocal<long[]> mine = new FastThreadLocal<>()
    {
        @Override
        protected long[] initialValue()
        {
            final long[] cells = new long[WIDTH];
            all.add(cells);
            return cells;
        }
    };
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
        final long[] cells = mine.get();
        add(cells, CALLS, 1);
        add(cells, NANOS, nanos);
        if (failed)
        {
            add(cells, FAILED, 1);
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
        add(mine.get(), REJECTED, 1);
    }

    /** @return commands run. */
    public long calls()
    {
        return sum(CALLS);
    }

    /** @return nanoseconds the event loops spent in them. */
    public long nanos()
    {
        return sum(NANOS);
    }

    /** @return commands refused before they ran. */
    public long rejectedCalls()
    {
        return sum(REJECTED);
    }

    /** @return commands that answered an error. */
    public long failedCalls()
    {
        return sum(FAILED);
    }

    /** Starts every counter again (CONFIG RESETSTAT); the histogram, cumulative by Prometheus's rules, is kept. */
    synchronized void reset()
    {
        for (int counter = 0; counter < WIDTH; counter++)
        {
            CELL.setOpaque(zero, counter, raw(counter));
        }
    }

    private static void add(final long[] cells, final int counter, final long delta)
    {
        CELL.setOpaque(cells, counter, cells[counter] + delta);
    }

    /** @return the counter's sum over every thread since the start or the last {@link #reset}. */
    private long sum(final int counter)
    {
        return raw(counter) - (long)CELL.getOpaque(zero, counter);
    }

    private long raw(final int counter)
    {
        long sum = 0;
        for (final long[] cells : all)
        {
            sum += (long)CELL.getOpaque(cells, counter);
        }
        return sum;
    }
}
