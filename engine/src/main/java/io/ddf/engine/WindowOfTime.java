package io.ddf.engine;

import io.ddf.engine.spi.GivenParameters;

/**
 * What {@link FilterBuilder#window(java.time.Duration)} means for each kind: a window of time is fifo-bloom's and
 * aged-cuckoo's, whose {@link FilterBuilder#subfilters} are then the window's slices; every other use says what to do
 * instead.
 */
final class WindowOfTime
{
    static final String WINDOW_MILLIS = "window-ms";
    static final String TIME_SOURCE = "time-source";
    static final String SLICES = "slices";
    static final String SUBFILTERS = "subfilters";

    private WindowOfTime()
    {
    }

    /**
     * @param kind  the kind being built.
     * @param given the parameters set on the builder.
     * @return them as the kind's definition takes them (a copy when any is renamed).
     * @throws IllegalArgumentException naming the builder calls that do not go together, and what to call instead.
     */
    static GivenParameters forKind(final FilterKind kind, final GivenParameters given)
    {
        if (!given.has(WINDOW_MILLIS))
        {
            if (given.has(TIME_SOURCE))
            {
                throw new IllegalArgumentException("eventTime() needs a window of time: add window(Duration)");
            }
            return given;
        }
        if (!kind.keepsTimeWindow())
        {
            throw new IllegalArgumentException("window(Duration): a window of time is fifo-bloom's (Filters.builder(" +
                "FilterKind.FIFO_BLOOM)) and aged-cuckoo's; " + kind.cliName() + " forgets by count: window(long) with subfilters(L) " +
                "makes its queuing construction, which has no window of time (its turn clears a whole subfilter " +
                "in the calling thread, which only the count bounds)");
        }
        if (given.has("window"))
        {
            throw new IllegalArgumentException("window(Duration) and window(long) both given: fifo-bloom's window of " +
                "time is sized by its capacity, the new elements that may come within a window " +
                "(param(\"capacity\", n)), not by a count window");
        }
        if (given.has("generations"))
        {
            throw new IllegalArgumentException("param(\"generations\", ...) with window(Duration): a window of time " +
                "keeps 2 x subfilters(L) generations; give subfilters(L) (the window's slices, default 2)");
        }
        final GivenParameters mapped = new GivenParameters();
        for (final String name : given.names())
        {
            final Number value = given.get(name);
            final String as = name.equals(SUBFILTERS) ? SLICES : name;
            if (value instanceof Double)
            {
                mapped.put(as, value.doubleValue());
            }
            else
            {
                mapped.put(as, value.longValue());
            }
        }
        return mapped;
    }
}
