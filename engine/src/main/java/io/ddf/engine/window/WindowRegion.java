package io.ddf.engine.window;

/**
 * Layout shared by the ring-based windowed kinds (exact, SHF, CSHF): one cache line of state (word 0 the
 * {@link io.ddf.engine.memory.SeqLock SeqLock}, word 1 the number of insertions n), then the ring, then (exact and
 * SHF) the counting table, each starting on a cache line.
 */
final class WindowRegion
{
    /** Word of the sequence lock. */
    static final long LOCK = 0;
    /** Word of n, the number of elements inserted so far; the ring's next slot is n mod w. */
    static final long INSERTIONS = 1;
    /** Words of the state line. */
    static final long STATE_WORDS = 8;

    private WindowRegion()
    {
    }

    /**
     * @param words a number of words.
     * @return the number rounded up to whole cache lines (8 words).
     */
    static long lineWords(final long words)
    {
        return (words + 7) & ~7L;
    }
}
