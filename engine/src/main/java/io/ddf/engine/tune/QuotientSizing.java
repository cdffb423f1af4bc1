package io.ddf.engine.tune;

import io.ddf.engine.FilterBuilder;

/**
 * Sizes the quotient hash tables that insert duplicates too (qhtd, qqhtd) for a capacity and an error rate, as
 * Redis's {@code BF.RESERVE key error_rate capacity} asks: a rule of thumb, for the kinds {@link CapacitySizing} has
 * no occupancy model of (it sizes qht itself, and fifo-bloom and bloom).
 *
 * <p>The rule, from the false positive rate k / S with S = 2^s − 1 distinct fingerprints (Géraud, Lombard-Platet and
 * Naccache, "Quotient Hash Tables: Efficiently Detecting Duplicates in Streaming Data", ACM SAC 2019, §4.5):
 * <ol>
 *   <li>k = 4 buckets per row (the engine's default: a row of four cells).</li>
 *   <li>s = the smallest fingerprint width with k / (2^s − 1) ≤ error_rate, i.e. s = ⌈log2(k / ε + 1)⌉ (at least
 *       ⌈log2(k + 2)⌉ so that k &lt; S).</li>
 *   <li>then s is raised while the row still packs the same number of rows into a 64-bit word (narrow rows,
 *       k·s ≤ 64): those bits would be padding otherwise, so the error rate drops at no cost in memory. For
 *       example ε = 0.01 gives s = 9, a 36-bit row, one row per word, so s becomes 16.</li>
 *   <li>rows N = ⌈2 · capacity / k⌉: the table has two cells per expected element, so a row holds on average
 *       two of its four cells' worth after {@code capacity} distinct elements and few rows overflow (evict).</li>
 * </ol>
 */
public final class QuotientSizing
{
    /** Buckets per row the rule uses. */
    public static final int BUCKETS = 4;
    /** Cells per expected element: rows N = ⌈CELLS_PER_ELEMENT · capacity / k⌉. */
    public static final int CELLS_PER_ELEMENT = 2;
    /** Widest fingerprint the engine stores. */
    private static final int MAX_FINGERPRINT_BITS = 32;
    private static final int WORD_BITS = 64;

    private QuotientSizing()
    {
    }

    /**
     * Sets rows, buckets and fingerprint bits on a builder of any QHT kind (qht, qhtd, qqhtd).
     *
     * @param builder   the builder.
     * @param capacity  expected number of distinct elements, at least 1.
     * @param errorRate wanted false positive rate, in (0, 1).
     * @return the builder.
     * @throws IllegalArgumentException for a capacity below 1, an error rate outside (0, 1), or one so small that
     *                                  it needs fingerprints of more than 32 bits.
     */
    public static FilterBuilder apply(final FilterBuilder builder, final long capacity, final double errorRate)
    {
        return builder.rows(rows(capacity)).buckets(BUCKETS).fingerprintBits(fingerprintBits(errorRate));
    }

    /**
     * @param capacity expected number of distinct elements, at least 1.
     * @return rows N = ⌈2 · capacity / k⌉.
     */
    public static long rows(final long capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        if (capacity > Long.MAX_VALUE / CELLS_PER_ELEMENT)
        {
            throw new IllegalArgumentException("capacity " + capacity + " is too large");
        }
        return (CELLS_PER_ELEMENT * capacity + BUCKETS - 1) / BUCKETS;
    }

    /**
     * @param errorRate wanted false positive rate, in (0, 1).
     * @return fingerprint bits s by the rule above.
     */
    public static int fingerprintBits(final double errorRate)
    {
        if (!(errorRate > 0 && errorRate < 1))
        {
            throw new IllegalArgumentException("error rate must be in (0, 1), got " + errorRate);
        }
        int s = 1;
        while (s <= MAX_FINGERPRINT_BITS && ((1L << s) - 1 <= BUCKETS || fpr(s) > errorRate))
        {
            s++;
        }
        if (s > MAX_FINGERPRINT_BITS)
        {
            throw new IllegalArgumentException("error rate " + errorRate + " needs fingerprints of more than " +
                MAX_FINGERPRINT_BITS + " bits with " + BUCKETS + " buckets");
        }
        if (BUCKETS * s <= WORD_BITS)
        {
            final int rowsPerWord = WORD_BITS / (BUCKETS * s);
            s = Math.min(MAX_FINGERPRINT_BITS, WORD_BITS / (BUCKETS * rowsPerWord));
        }
        return s;
    }

    /**
     * @param fingerprintBits s.
     * @return the asymptotic false positive rate k / (2^s − 1) of a QHT with {@link #BUCKETS} buckets.
     */
    public static double fpr(final int fingerprintBits)
    {
        return (double)BUCKETS / ((1L << fingerprintBits) - 1);
    }

    /**
     * The capacity a quotient filter was sized for by this rule, from its rows and buckets.
     *
     * @param rows    N.
     * @param buckets k.
     * @return N · k / 2.
     */
    public static long capacityOf(final long rows, final long buckets)
    {
        return rows * buckets / CELLS_PER_ELEMENT;
    }
}
