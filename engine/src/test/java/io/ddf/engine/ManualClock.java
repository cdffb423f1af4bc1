package io.ddf.engine;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/** A wall clock a test moves by hand ({@link FilterBuilder#clock}): no sleep, no reading of the real time. */
public final class ManualClock implements InstantSource
{
    private final AtomicLong millis;

    public ManualClock(final long startMillis)
    {
        this.millis = new AtomicLong(startMillis);
    }

    @Override
    public Instant instant()
    {
        return Instant.ofEpochMilli(millis.get());
    }

    @Override
    public long millis()
    {
        return millis.get();
    }

    /** Sets the time (a test may set it back, to show the filter's time does not follow). */
    void set(final long time)
    {
        millis.set(time);
    }

    public void advance(final long by)
    {
        millis.addAndGet(by);
    }
}
