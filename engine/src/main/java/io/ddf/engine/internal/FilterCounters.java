package io.ddf.engine.internal;

import io.ddf.engine.memory.MappedWords;

/**
 * Element and duplicate counters kept in the file's state region, in stripes of one cache line each. A thread that
 * streams counts in the stripe it owns ({@link ThreadStripes}), as its only writer: it adds with a plain load and a
 * release (ordered) store, no locked instruction, and no other thread writes that line. The last stripe is the
 * overflow, added to atomically, for threads beyond the {@code STRIPES - 1} that own one at a time (a stripe whose
 * owner has terminated is taken over by the next thread that needs one; the counts in it stay).
 *
 * <pre>
 *   state region
 *   +---------------------------------------------------------------+
 *   | stripe 0: elements (8) | duplicates (8) | reserved to 64 bytes |
 *   | stripe 1 ...                                                  |
 *   | ... STRIPES stripes, 64 bytes each; the last one shared       |
 *   +---------------------------------------------------------------+
 * </pre>
 *
 * Which stripe holds which counts means nothing: only the sums do, so files written by earlier versions (striped
 * by the element's hash) read the same.
 */
public final class FilterCounters
{
    /** Number of stripes (part of the file format): one per {@link ThreadStripes} stripe. */
    static final int STRIPES = ThreadStripes.STRIPES;
    /** The stripe every thread without one of its own adds to atomically. */
    static final int OVERFLOW = ThreadStripes.OVERFLOW;
    /** Bytes of one stripe: a cache line. */
    static final int STRIPE_LENGTH = 64;
    /** Bytes of state region the counters need. */
    public static final int LENGTH = STRIPES * STRIPE_LENGTH;
    static final int ELEMENTS_OFFSET = 0;
    static final int DUPLICATES_OFFSET = ELEMENTS_OFFSET + Long.BYTES;

    private static final int WORDS_PER_STRIPE = STRIPE_LENGTH / Long.BYTES;

    private final MappedWords state;

    /**
     * @param stateAddress absolute address of the state region.
     * @param stateLength  its length, at least {@link #LENGTH}.
     */
    FilterCounters(final long stateAddress, final long stateLength)
    {
        if (stateLength < LENGTH)
        {
            throw new IllegalArgumentException("state region of " + stateLength + " bytes, counters need " + LENGTH);
        }
        this.state = new MappedWords(stateAddress, LENGTH / Long.BYTES);
    }

    /**
     * Counts verdicts in the calling thread's stripe: elements first, then duplicates, each by a release store (so
     * that a crash between the two leaves duplicates &lt;= elements), and no locked instruction unless the thread has
     * no stripe of its own. A batch costs one stripe update.
     *
     * @param stripe     the index of the calling thread's stripe ({@link ThreadStripes#mine()}).
     * @param elements   verdicts given.
     * @param duplicates of which DUPLICATE, at most {@code elements}.
     */
    void record(final int stripe, final long elements, final long duplicates)
    {
        final long base = (long)stripe * WORDS_PER_STRIPE;
        if (stripe != OVERFLOW)
        {
            state.putLongRelease(base, state.getLongPlain(base) + elements);
            if (duplicates != 0)
            {
                state.putLongRelease(base + 1, state.getLongPlain(base + 1) + duplicates);
            }
        }
        else
        {
            state.getAndAddLong(base, elements);
            if (duplicates != 0)
            {
                state.getAndAddLong(base + 1, duplicates);
            }
        }
    }

    long elements()
    {
        return sum(ELEMENTS_OFFSET);
    }

    long duplicates()
    {
        return sum(DUPLICATES_OFFSET);
    }

    private long sum(final int fieldOffset)
    {
        long total = 0;
        for (int i = 0; i < STRIPES; i++)
        {
            total += state.getLongVolatile((long)i * WORDS_PER_STRIPE + fieldOffset / Long.BYTES);
        }
        return total;
    }

    /**
     * The counters' invariants, for a file its checksum cannot vouch for: in every stripe, 0 <= duplicates <=
     * elements (record() stores elements before duplicates, in order, so a crash between the two keeps it), and the
     * rest of the stripe's cache line is zero.
     *
     * @param stateAddress absolute address of the state region, at least {@link #LENGTH} long; read only.
     * @throws IllegalArgumentException naming the first stripe that breaks them.
     */
    static void checkStructure(final long stateAddress)
    {
        final MappedWords state = new MappedWords(stateAddress, LENGTH / Long.BYTES);
        for (int i = 0; i < STRIPES; i++)
        {
            final long base = (long)i * WORDS_PER_STRIPE;
            final long elements = state.getLongVolatile(base + ELEMENTS_OFFSET / Long.BYTES);
            final long duplicates = state.getLongVolatile(base + DUPLICATES_OFFSET / Long.BYTES);
            if (elements < 0 || duplicates < 0 || duplicates > elements)
            {
                throw new IllegalArgumentException("counter stripe " + i + " holds " + elements + " elements and " +
                    duplicates + " duplicates (needs 0 <= duplicates <= elements)");
            }
            for (int w = 2; w < WORDS_PER_STRIPE; w++)
            {
                if (state.getLongPlain(base + w) != 0)
                {
                    throw new IllegalArgumentException("counter stripe " + i + " has a non-zero reserved word " + w);
                }
            }
        }
    }

    /**
     * Sums a counter from a copy of the state region (for reading a file without mapping it).
     *
     * @param state       the state region's bytes.
     * @param duplicates  true for the duplicate counter, false for elements.
     * @return the sum over the stripes.
     */
    public static long sum(final byte[] state, final boolean duplicates)
    {
        final java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(state).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long total = 0;
        for (int i = 0; i < STRIPES; i++)
        {
            total += buffer.getLong(i * STRIPE_LENGTH + (duplicates ? DUPLICATES_OFFSET : ELEMENTS_OFFSET));
        }
        return total;
    }
}
