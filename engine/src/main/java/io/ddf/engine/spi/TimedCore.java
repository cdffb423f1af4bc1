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

    /** What {@link #doDeferredWork()} returns when nothing is due. */
    long NO_DEFERRED_WORK = -1;

    /**
     * Registers what the core calls when work it may do off the calling threads becomes due (a windowed fifo-bloom's
     * seal of a slot, which would otherwise stall the call that turns): the holder of the core then calls
     * {@link #doDeferredWork()} from a thread of its own, between and alongside the stream calls, until it returns
     * {@link #NO_DEFERRED_WORK}. A core with no such work ignores it.
     *
     * @param wake called from a stream call (it must not block), or at once when work is due already; null: none.
     */
    default void onDeferredWork(final Runnable wake)
    {
    }

    /**
     * A bounded step of the deferred work (tens of microseconds), safe alongside stream calls on any thread; never
     * called while the core's memory may be unmapped (the holder counts the step in as a call).
     *
     * @return units of work done (0: work is due but cannot be done yet; call again later), or
     *     {@link #NO_DEFERRED_WORK}.
     */
    default long doDeferredWork()
    {
        return NO_DEFERRED_WORK;
    }

    /**
     * Once {@link #doDeferredWork()} has nothing left: readies what the next turn by time will touch (a windowed
     * fifo-bloom's pages that turn stores into, faulted in writable), once per turn, so that the call that turns does
     * not take those page faults. Changes nothing a call reads; safe alongside stream calls, counted in as one.
     *
     * @return pages (or other units) readied; 0 when the next turn's are already.
     */
    default long prepareNextTurn()
    {
        return 0;
    }
}
