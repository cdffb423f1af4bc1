package io.ddf.ingest.dispatch;

import io.netty.util.concurrent.FastThreadLocal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A few counters that every event loop adds to without a locked instruction: each thread adds to cells of its own
 * (a plain read and an opaque write, found through Netty's FastThreadLocal, an array index on an event loop), and a
 * reader sums every thread's cells. {@code LongAdder}, which these replace on the request path, takes a
 * compare-and-swap per add even uncontended: three per command. {@link #reset} keeps the sums monotonic: it records
 * them as the new zero rather than writing another thread's cells.
 */
public final class ThreadCounters
{
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    private final int width;
    private final List<long[]> all = new CopyOnWriteArrayList<>();
    private final long[] zero;
    private final FastThreadLocal<long[]> mine = new FastThreadLocal<>()
    {
        @Override
        protected long[] initialValue()
        {
            final long[] cells = new long[width];
            all.add(cells);
            return cells;
        }
    };

    /** @param width counters. */
    public ThreadCounters(final int width)
    {
        this.width = width;
        this.zero = new long[width];
    }

    /** @return this thread's cells, for {@link #add(long[], int, long)}: look them up once for several adds. */
    public long[] cells()
    {
        return mine.get();
    }

    /**
     * @param cells   this thread's cells ({@link #cells()}).
     * @param counter which.
     * @param delta   added.
     */
    public static void add(final long[] cells, final int counter, final long delta)
    {
        CELL.setOpaque(cells, counter, cells[counter] + delta);
    }

    /**
     * @param counter which.
     * @return its sum over every thread since the start or the last {@link #reset}.
     */
    public long sum(final int counter)
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

    /** Starts every counter again from 0. */
    synchronized void reset()
    {
        for (int counter = 0; counter < width; counter++)
        {
            CELL.setOpaque(zero, counter, raw(counter));
        }
    }
}
