package io.ddf.engine.internal;

import io.ddf.engine.memory.MappedWords;

/**
 * Element and duplicate counters kept in the file's state region, striped over cache lines (by the element's
 * hash) so that threads streaming different elements rarely share a line.
 *
 * <pre>
 *   state region
 *   +---------------------------------------------------------------+
 *   | stripe 0: elements (8) | duplicates (8) | reserved to 64 bytes |
 *   | stripe 1 ...                                                  |
 *   | ... STRIPES stripes, 64 bytes each                            |
 *   +---------------------------------------------------------------+
 * </pre>
 */
public final class FilterCounters
{
    /** Number of stripes; a power of two. */
    static final int STRIPES = 16;
    private static final int STRIPE_BITS = 4;
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
     * @param hash      the element's hash, choosing the stripe.
     * @param duplicate the verdict.
     */
    void record(final long hash, final boolean duplicate)
    {
        final long base = (hash >>> (64 - STRIPE_BITS)) * WORDS_PER_STRIPE;
        state.getAndAddLong(base + ELEMENTS_OFFSET / Long.BYTES, 1);
        if (duplicate)
        {
            state.getAndAddLong(base + DUPLICATES_OFFSET / Long.BYTES, 1);
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
