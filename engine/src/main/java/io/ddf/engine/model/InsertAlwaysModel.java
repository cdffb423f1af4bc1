package io.ddf.engine.model;

/**
 * The error model of the quotient tables that store every arrival, duplicate or not (QHT paper §5): QQHTD, whose
 * rows are FIFO queues (Alg. 2), and QHTD, which fills the first empty cell and otherwise overwrites a random one.
 * N rows of k cells, S = 2^s − 1 values; an element's row takes j ~ Poisson(t/N) arrivals in t (the paper's
 * mean traffic; {@link #atShare} and {@link RowShares} average over a finite alphabet's rows, as for QHT).
 * <ul>
 *   <li>False positive after m arrivals: the row holds min(j, k) values, each another element's, so
 *       FP_m = 1 − E[(1 − 1/S)^min(j, k)], j ~ Poisson(m/N); → 1 − (1 − 1/S)^k ({@link QhtdModel}).</li>
 *   <li>False negative t arrivals after the element's last occurrence: QQHTD forgets it once k more arrivals
 *       reached the row, QHTD with probability 1 − (1 − 1/k)^j (a random cell per arrival, rows taken as full);
 *       then it is judged UNSEEN unless one of the k values collides: FN(t) = P(forgotten)·(1 − 1/S)^k
 *       → (1 − 1/S)^k.</li>
 * </ul>
 * Simplifications: arrivals bring independent values (an element repeating within a row brings the same one), and
 * QHTD's earlier copies of the element are ignored (they only lower the FN). The paper gives only the
 * asymptotes; these finite-stream forms are checked against measurement in the engine's tests.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
public final class InsertAlwaysModel
{
    private final double rows;
    private final int buckets;
    private final boolean fifo;
    private final int fingerprintBits;
    private final double miss;

    /**
     * @param rows            N, at least 1.
     * @param buckets         k, at least 1.
     * @param fingerprintBits s, in 2..32.
     * @param fifo            QQHTD's FIFO rows rather than QHTD's random overwrite.
     */
    public InsertAlwaysModel(final long rows, final int buckets, final int fingerprintBits, final boolean fifo)
    {
        this((double)rows, buckets, fingerprintBits, fifo);
    }

    private InsertAlwaysModel(final double rows, final int buckets, final int fingerprintBits, final boolean fifo)
    {
        if (rows < 1 || buckets < 1 || fingerprintBits < 2 || fingerprintBits > 32)
        {
            throw new IllegalArgumentException("need N >= 1, k >= 1 and s in 2..32");
        }
        this.rows = rows;
        this.buckets = buckets;
        this.fifo = fifo;
        this.fingerprintBits = fingerprintBits;
        this.miss = 1 - 1 / (Math.pow(2, fingerprintBits) - 1);
    }

    /**
     * @param share U / K for a row that K other elements of a finite alphabet share ({@link RowShares}).
     * @return this model with the row's traffic 1/share per arrival instead of 1/N.
     */
    public InsertAlwaysModel atShare(final double share)
    {
        return new InsertAlwaysModel(Math.max(1, share), buckets, fingerprintBits, fifo);
    }

    /**
     * @param insertions m, arrivals so far.
     * @return FP_m.
     */
    public double falsePositive(final long insertions)
    {
        final double mean = (double)insertions / rows;
        double clear = 0;
        double below = 0; // P(j < k)
        double term = Math.exp(-mean);
        for (int j = 0; j < buckets; j++)
        {
            clear += term * Math.pow(miss, j);
            below += term;
            term *= mean / (j + 1);
        }
        return 1 - clear - Math.max(0, 1 - below) * Math.pow(miss, buckets);
    }

    /**
     * @param later t, arrivals since the element's last occurrence.
     * @return FN(t).
     */
    public double falseNegative(final long later)
    {
        final double mean = (double)later / rows;
        final double forgotten;
        if (fifo)
        {
            forgotten = Poisson.atLeast(buckets, mean);
        }
        else
        {
            forgotten = -Math.expm1(-mean / buckets); // E[1 − (1 − 1/k)^j] ≈ 1 − e^{−t/(Nk)}
        }
        return forgotten * Math.pow(miss, buckets);
    }

    @Override
    public String toString()
    {
        return (fifo ? "QQHTD" : "QHTD") + "(N=" + rows + ", k=" + buckets + ", s=" + fingerprintBits + ")";
    }
}
