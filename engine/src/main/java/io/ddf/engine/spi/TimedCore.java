package io.ddf.engine.spi;

/**
 * A core whose generations also turn with time (a filter with a window of time): every call may first apply what the
 * passage of time has made due (a turn to a new generation, the expiry of old ones), then judges the element.
 */
public interface TimedCore extends FilterCore
{
    /**
     * {@link #stream(long)} at a given time: the element's own (event time), or the clock's.
     *
     * @param hash the element's 64-bit hash.
     * @param time epoch milliseconds, at least 0; an element older than the filter's time is judged and added as of
     *             the filter's time (it moves nothing).
     * @return true when judged DUPLICATE.
     */
    boolean stream(long hash, long time);

    /** @return whether this core has a window of time (a core may implement this interface and have none). */
    boolean windowed();

    /** @return what the window holds and has done, read now; null when it has none. */
    WindowSnapshot window();

    /**
     * Makes {@link #recover()} leave out the time that passed while the file was closed, for {@link #openTime()} to
     * apply later: a filter written through a change log replays its records first (they turned generations at their
     * own times), then applies the time, its turns recorded in the log like any other.
     */
    void deferOpenTime();

    /** Applies the time that passed while the file was closed, when {@link #deferOpenTime()} deferred it. */
    void openTime();
}
