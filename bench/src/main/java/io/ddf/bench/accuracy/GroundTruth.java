package io.ddf.bench.accuracy;

/**
 * Exact answers for each element of a stream, computed as it goes: was it ever seen (unbounded), and how far back
 * was it last seen (windowed: a duplicate in window w iff the distance is at most w).
 */
public final class GroundTruth
{
    /** {@link #observe} result for an element never seen before. */
    public static final long NEVER = -1;
    /** {@link #observe} result for an element seen, but further back than the horizon. */
    public static final long FAR = Long.MAX_VALUE;

    private final SeenSet seen;
    private final LastSeen lastSeen;
    private long position;

    /**
     * @param keySpace bound on the keys.
     * @param length   stream length.
     * @param horizon  the largest window asked about, 0 for none (then distances are all {@link #FAR}).
     */
    public GroundTruth(final long keySpace, final long length, final long horizon)
    {
        this.seen = SeenSet.forKeySpace(keySpace);
        this.lastSeen = horizon > 0 ? LastSeen.forKeySpace(keySpace, length, horizon) : null;
    }

    /**
     * @param seen     the unbounded truth.
     * @param lastSeen the windowed truth, or null.
     */
    GroundTruth(final SeenSet seen, final LastSeen lastSeen)
    {
        this.seen = seen;
        this.lastSeen = lastSeen;
    }

    /**
     * Takes the next element of the stream.
     *
     * @param key the element's key.
     * @return {@link #NEVER}, the distance to its previous occurrence (1 for the element just before), or
     *         {@link #FAR}.
     */
    public long observe(final long key)
    {
        final long now = position++;
        final boolean before = seen.addAndCheck(key);
        final long previous = lastSeen == null ? LastSeen.NONE : lastSeen.swap(key, now);
        if (!before)
        {
            return NEVER;
        }
        return previous == LastSeen.NONE ? FAR : now - previous;
    }

    /**
     * @param distance an {@link #observe} result.
     * @param window   a window w.
     * @return whether the element was seen among the last w elements.
     */
    public static boolean inWindow(final long distance, final long window)
    {
        return distance != NEVER && distance <= window;
    }
}
