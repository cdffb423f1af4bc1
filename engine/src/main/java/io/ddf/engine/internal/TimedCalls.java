package io.ddf.engine.internal;

import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.TimedCore;

/** The checks of a call that gives an element's time ({@link MappedFilter#streamHash(long, long)}). */
final class TimedCalls
{
    private TimedCalls()
    {
    }

    /**
     * @return the core as one with a window of time.
     * @throws UnsupportedOperationException when it has none.
     * @throws IllegalArgumentException      when the time is negative.
     */
    static TimedCore core(final FilterCore core, final KindDefinition definition, final long time)
    {
        if (!(core instanceof TimedCore timed) || !timed.windowed())
        {
            throw new UnsupportedOperationException(definition.name() + " has no window of time: build it with a " +
                "window of time to stream elements with their times");
        }
        if (time < 0)
        {
            throw new IllegalArgumentException("time " + time + " is negative: give epoch milliseconds");
        }
        return timed;
    }
}
