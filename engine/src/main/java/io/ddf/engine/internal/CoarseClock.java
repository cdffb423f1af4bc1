package io.ddf.engine.internal;

import io.ddf.engine.spi.FilterClock;

import java.util.concurrent.locks.LockSupport;

/**
 * The wall clock a filter with a window of time reads for each element: the epoch milliseconds of
 * {@code System.currentTimeMillis()}, refreshed every {@value Ticker#PERIOD_MILLIS} ms by one daemon thread of the JVM
 * and read as a volatile field (a plain load on x86), instead of a clock call per element: that call costs a
 * fifo-bloom 8 to 28 % more per call (bench/results/window/window-overhead-*.md). It never goes backwards: a wall clock
 * set back holds it until the wall clock catches up, so a window only ever runs late, never early. It lags the wall
 * clock by at most the refresh period plus the ticker's scheduling delay; the filters' promises are stated in its time,
 * and its resolution is the period (a finer window wants event time or an injected clock).
 *
 * <p>The ticker starts with the first filter that reads it, and then wakes a hundred times a second for the life of
 * the JVM: 0.44 % of a core on the shared bench machine (1.8 % when it woke every millisecond;
 * bench/results/window/coarse-clock-ticker.md).
 */
public final class CoarseClock implements FilterClock
{
    /** The clock. */
    public static final CoarseClock SYSTEM = new CoarseClock();

    private CoarseClock()
    {
    }

    @Override
    public long millis()
    {
        return Ticker.now;
    }

    /** Holder: the thread starts when the class is first used, and the field is read with no further check. */
    private static final class Ticker
    {
        private static final long PERIOD_MILLIS = 10;
        private static final long PERIOD_NANOS = PERIOD_MILLIS * 1_000_000L;
        private static volatile long now = System.currentTimeMillis();

        static
        {
            final Thread ticker = new Thread(Ticker::run, "ddf-coarse-clock");
            ticker.setDaemon(true);
            ticker.start();
        }

        private Ticker()
        {
        }

        private static void run()
        {
            while (true)
            {
                final long wall = System.currentTimeMillis();
                if (wall > now)
                {
                    now = wall;
                }
                LockSupport.parkNanos(PERIOD_NANOS);
            }
        }
    }
}
