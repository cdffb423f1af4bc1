package io.ddf.engine.spi;

/**
 * Where a core with a window of time reads the time of a call that gives none: milliseconds since the epoch, never
 * going backwards. The embedder API passes the wall clock (a coarse one, cheap enough to read per element), or an
 * injected one for tests and simulations; a filter driven by event time reads {@link #NONE}.
 */
@FunctionalInterface
public interface FilterClock
{
    /** What {@link #NONE} reads: no time, so a call without one moves nothing (the filter's time is its events'). */
    long NO_TIME = -1;

    /** Event time: a call without a time does not move the filter's time. */
    FilterClock NONE = () -> NO_TIME;

    /** @return the time, epoch milliseconds (at least 0), or {@link #NO_TIME}. */
    long millis();
}
