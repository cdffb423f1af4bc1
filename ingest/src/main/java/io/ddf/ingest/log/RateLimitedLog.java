package io.ddf.ingest.log;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * At most one line per interval for one kind of event, with a count of the lines held back since: a flood of
 * abandoned connections or failed AUTHs must not flood the log (or fill the disk the log is on). Thread-safe;
 * the lines themselves go to the daemon's log.
 */
public final class RateLimitedLog
{
    private final Consumer<String> log;
    private final long intervalNanos;
    private final LongSupplier clock;
    private long nextNanos;
    private long suppressed;
    private boolean started;

    /**
     * @param log      where lines go.
     * @param interval the least time between two lines, in seconds.
     * @param clock    nanoTime, or a test's clock.
     */
    public RateLimitedLog(final Consumer<String> log, final long interval, final LongSupplier clock)
    {
        this.log = log;
        this.intervalNanos = TimeUnit.SECONDS.toNanos(interval);
        this.clock = clock;
    }

    /**
     * @param log      where lines go.
     * @param interval the least time between two lines, in seconds.
     */
    public RateLimitedLog(final Consumer<String> log, final long interval)
    {
        this(log, interval, System::nanoTime);
    }

    /**
     * Logs the line unless one was logged less than an interval ago; then it is only counted, and the next line
     * logged says how many were held back.
     *
     * @param line the line.
     * @return whether it was logged.
     */
    public boolean log(final String line)
    {
        final long held;
        synchronized (this)
        {
            final long now = clock.getAsLong();
            if (started && now - nextNanos < 0)
            {
                suppressed++;
                return false;
            }
            started = true;
            nextNanos = now + intervalNanos;
            held = suppressed;
            suppressed = 0;
        }
        log.accept(held == 0 ? line : line + " (and " + held + " more like it since the last such line)");
        return true;
    }
}
