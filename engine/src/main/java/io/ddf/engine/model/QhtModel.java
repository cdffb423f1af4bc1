package io.ddf.engine.model;

/**
 * The error model of a Quotient Hash Table (QHT paper §4) of N rows, k cells per row and s-bit fingerprints, on a
 * stream drawn uniformly from an alphabet of U elements. S = 2^s − 1 usable fingerprints: 0 marks an empty cell and
 * a zero fingerprint is re-derived (QHT paper §3.2 option 3, footnote 16), as the engine does.
 *
 * <p>With a = (S − k) / (k(NS − 1)) (per insertion, the probability that a given stored fingerprint is evicted by
 * something other than a false duplicate), b = k / S and c = 1 − 1/(Nk) (QHT paper Th. 4.2's notation):
 * <ul>
 *   <li>Theorem 4.1: FP_m = b(1 − c^m), the probability that an unseen element arriving after m others is judged
 *       DUPLICATE; FPR_∞ = k / S.</li>
 *   <li>Theorem 4.2: an element last seen t insertions ago is judged UNSEEN with probability
 *       FN(t) = (1 − b)(1 − (1 − a)^t) + ab((1 − a)^t − c^t) / (1 − a − c) (the paper's FN_{i,m}, t = m − i);
 *       FNR_∞ = 1 − k / S for U ≫ N, and Appendix B's limit for a finite U.</li>
 * </ul>
 * Finite streams: the paper writes FPR_n = (1/n) Σ FP_m and FNR_n = (1/n) Σ FN_m ({@link #paperFalsePositiveRate},
 * {@link #paperFalseNegativeRate}). Its FN_m is the joint probability "the (m+1)-th element is a duplicate and
 * judged UNSEEN", so its FNR_n is a fraction of all elements, not of the duplicates; the rates a harness measures
 * (false negatives over duplicates, false positives over unseen elements) are {@link #falseNegativeRate} and
 * {@link #falsePositiveRate}, which weight each position by the probability that its element is a duplicate
 * (resp. unseen). Both agree with the paper's as n → ∞.
 *
 * <p>Assumptions, from the proofs: hashes are random functions, and every row is full (no empty cell). The second
 * holds from the start for k = 1 (a row holding the element in question is full); for k &gt; 1 rows fill faster
 * than c^m says in the first Nk insertions, so FP_m is an underestimate there and FN(t) an overestimate while
 * rows are not yet full.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
public final class QhtModel implements SubfilterModel
{
    private final long rows;
    private final int buckets;
    private final int fingerprintBits;
    private final double fingerprints;
    /** a. */
    private final double evict;
    /** b = k / S. */
    private final double saturation;
    /** 1 − c = 1 / (Nk). */
    private final double fill;
    /** ab / (1 − a − c). */
    private final double coupling;

    /**
     * @param rows            N, at least 1.
     * @param buckets         k, in 1..S − 1.
     * @param fingerprintBits s, in 2..32.
     * @throws IllegalArgumentException out of range, or N·k &lt; 2 (the model divides by Nk − 1).
     */
    public QhtModel(final long rows, final int buckets, final int fingerprintBits)
    {
        this(rows, buckets, checkBits(fingerprintBits), Math.pow(2, fingerprintBits) - 1, rows);
        if (rows < 1 || (double)rows * buckets < 2)
        {
            throw new IllegalArgumentException("the model needs at least two cells, got rows " + rows);
        }
    }

    /**
     * A quotient table whose cells hold one of S values that are not equally likely (SQF signatures): it behaves
     * as a QHT with S = 1 / (the probability that two elements' values collide).
     *
     * @param rows       N, at least 1.
     * @param buckets    k, fewer than S.
     * @param cellBits   bits per cell (for {@link #fingerprintBits}).
     * @param collision  the probability that two distinct elements store the same value.
     * @return the model.
     */
    public static QhtModel withCollision(final long rows, final int buckets, final int cellBits,
        final double collision)
    {
        if (rows < 1 || (double)rows * buckets < 2 || !(collision > 0 && collision < 1))
        {
            throw new IllegalArgumentException("need N·k >= 2 and a collision probability in (0, 1)");
        }
        return new QhtModel(rows, buckets, cellBits, 1 / collision, rows);
    }

    private static int checkBits(final int fingerprintBits)
    {
        if (fingerprintBits < 2 || fingerprintBits > 32)
        {
            throw new IllegalArgumentException("fingerprint bits must be in 2..32, got " + fingerprintBits);
        }
        return fingerprintBits;
    }

    /**
     * @param rows            N, as built.
     * @param buckets         k.
     * @param fingerprintBits s (bits per cell).
     * @param s               S, the distinct values a cell holds (1 / collision probability).
     * @param share           1 / (the probability that an arrival lands in the element's row): N for the paper's
     *                        model, U / K for a row that K other elements of a finite alphabet share.
     */
    private QhtModel(final long rows, final int buckets, final int fingerprintBits, final double s,
        final double share)
    {
        if (buckets < 1 || buckets >= s)
        {
            throw new IllegalArgumentException("buckets must be in 1.." + (long)Math.ceil(s - 1) + ", got " + buckets);
        }
        this.rows = rows;
        this.buckets = buckets;
        this.fingerprintBits = fingerprintBits;
        this.fingerprints = s;
        // a row with fewer than two cells' worth of traffic: the closed forms divide by Nk − 1
        final double n = Math.max(share, 2.0 / buckets);
        final double cells = n * buckets;
        this.evict = (s - buckets) / (buckets * (n * s - 1));
        this.saturation = buckets / s;
        this.fill = 1 / cells;
        // 1 − a − c = (Nk − 1) / (Nk (NS − 1)), written so that it does not cancel
        this.coupling = evict * saturation / ((cells - 1) / (cells * (n * s - 1)));
    }

    /**
     * The model of a QHT as the engine builds it from a memory budget: N = ⌊M / (k·s)⌋ (QHT paper Alg. 1).
     *
     * @param memoryBits      M.
     * @param buckets         k.
     * @param fingerprintBits s.
     * @return the model.
     */
    public static QhtModel forMemory(final long memoryBits, final int buckets, final int fingerprintBits)
    {
        return new QhtModel(memoryBits / ((long)buckets * fingerprintBits), buckets, fingerprintBits);
    }

    /** @return N. */
    public long rows()
    {
        return rows;
    }

    /** @return k. */
    public int buckets()
    {
        return buckets;
    }

    /** @return s. */
    public int fingerprintBits()
    {
        return fingerprintBits;
    }

    /** @return S = 2^s − 1 (for SQF, 1 / the collision probability of its signatures). */
    public double fingerprints()
    {
        return fingerprints;
    }

    /** @return FPR_∞ = k / S (Th. 4.1). */
    public double asymptoticFalsePositiveRate()
    {
        return saturation;
    }

    /** @return FNR_∞ = 1 − k / S (Th. 4.2, U ≫ N). */
    public double asymptoticFalseNegativeRate()
    {
        return 1 - saturation;
    }

    /**
     * Theorem 4.1.
     *
     * @param insertions m.
     * @return FP_m = (k/S)(1 − (1 − 1/(Nk))^m).
     */
    @Override
    public double falsePositive(final long insertions)
    {
        return saturation * -Math.expm1(insertions * Math.log1p(-fill));
    }

    /**
     * Theorem 4.2's FN_{i,m} with t = m − i.
     *
     * @param later t.
     * @return (1 − b)(1 − (1 − a)^t) + ab((1 − a)^t − c^t) / (1 − a − c).
     */
    @Override
    public double falseNegative(final long later)
    {
        final double kept = Geometric.power(evict, later);
        return (1 - saturation) * (1 - kept) + coupling * (kept - Geometric.power(fill, later));
    }

    @Override
    public double weightedFalseNegativeSum(final long count, final double x)
    {
        final double plain = Geometric.sum(x, count);
        final double kept = Geometric.sum(Geometric.product(x, evict), count);
        final double filled = Geometric.sum(Geometric.product(x, fill), count);
        return (1 - saturation) * (plain - kept) + coupling * (kept - filled);
    }

    /**
     * The false positive rate over the unseen elements of a stream of n elements drawn uniformly from U: Σ_m q^m
     * FP_m / Σ_m q^m, m = 0 … n − 1, q = 1 − 1/U (the probability that the element at m is unseen is q^m),
     * averaged over the rows' shares of a finite alphabet ({@link RowShares}: the paper's model at the mean traffic
     * 1/N overstates it when U/N is small).
     *
     * @param n        stream length.
     * @param alphabet U, or {@link Double#POSITIVE_INFINITY} for a stream without duplicates.
     * @return the expected FPR.
     */
    public double falsePositiveRate(final long n, final double alphabet)
    {
        final RowShares shares = new RowShares(rows, alphabet);
        return shares.plain() ? meanTrafficFalsePositiveRate(n, alphabet) : shares.average(others -> others < buckets ?
            sparseFalsePositiveRate(others, n, alphabet) : atShare(alphabet / others).meanTrafficFalsePositiveRate(n,
            alphabet));
    }

    /**
     * A row shared by K &lt; k others never evicts; an unseen element arriving after m others collides with the
     * fingerprints of the distinct others seen so far, D ~ Binomial(K, v), v = 1 − q^m: FP = 1 − (1 − v/S)^K.
     * Averaged over the unseen positions (weight q^m, i.e. v uniform on [0, V], V = 1 − q^n):
     * 1 − S (1 − (1 − V/S)^{K+1}) / ((K + 1) V).
     */
    private double sparseFalsePositiveRate(final long others, final long n, final double alphabet)
    {
        final double v = -Math.expm1(n * Math.log1p(-1 / alphabet));
        final double clear = -Math.expm1((others + 1) * Math.log1p(-v / fingerprints));
        return 1 - fingerprints * clear / ((others + 1) * v);
    }

    /**
     * The paper's model: {@link #falsePositiveRate} with every row taking 1/N of the arrivals (exact as U/N → ∞).
     *
     * @param n        stream length.
     * @param alphabet U.
     * @return the FPR at the mean traffic per row.
     */
    public double meanTrafficFalsePositiveRate(final long n, final double alphabet)
    {
        final double x = 1 / alphabet;
        return saturation * (1 - Geometric.sum(Geometric.product(x, fill), n) / Geometric.sum(x, n));
    }

    /**
     * The paper's FPR_n = (1/n) Σ_{m=1}^{n} FP_m (Th. 4.1's proof), which assumes every element unseen.
     *
     * @param n stream length.
     * @return FPR_n.
     */
    public double paperFalsePositiveRate(final long n)
    {
        return saturation * (1 - (Geometric.sum(fill, n + 1.0) - 1) / n);
    }

    /**
     * The false negative rate over the duplicates of a stream of n elements drawn uniformly from U:
     * Σ_m Σ_{t&lt;m} q^t FN(t) / Σ_m Σ_{t&lt;m} q^t (the element at m was last seen t + 1 positions back with
     * probability q^t / U), averaged over the rows' shares of a finite alphabet ({@link RowShares}).
     *
     * @param n        stream length.
     * @param alphabet U ({@link Double#POSITIVE_INFINITY}: the last occurrence uniform over the past).
     * @return the expected FNR.
     */
    public double falseNegativeRate(final long n, final double alphabet)
    {
        final RowShares shares = new RowShares(rows, alphabet);
        // a row shared by K < k others never evicts: no false negative
        return shares.plain() ? meanTrafficFalseNegativeRate(n, alphabet) :
            shares.average(others -> finiteRowFalseNegativeRate(others, n, alphabet));
    }

    /**
     * The FNR of a row that K others share, in the steady state of a finite alphabet. A row with K &lt; k others
     * never evicts: 0. Otherwise it holds k of its K + 1 elements once they have all come by; after the element's
     * last occurrence another element of the row arrives at K/U per arrival, is one of the K − k + 1 not stored
     * with probability (K − k + 1)/K, is judged UNSEEN unless its fingerprint equals one of the k − 1 others
     * stored, r^{k−1} (r = 1 − 1/S; one equal to the element's own leaves the element's fingerprint in place), and
     * evicts the element with probability 1/k: a hazard h = (K − k + 1) r^{k−1} / (kU) per arrival. Evicted, the
     * element is judged UNSEEN unless one of the k stored values collides: FN(t) = (1 − (1 − h)^t) r^k.
     * Exact for k = 1 (the row holds its last arrival's fingerprint); for K ≫ k, h → r^{k−1} K / (kU), about the
     * paper's a at N = U/K. The paper's a, which draws a fresh fingerprint per arrival, counts as evictions the
     * arrivals of elements the row already holds: at 1.5–5 elements per cell it overstates the FNR by 3–10 points
     * (measured: k = 4, s = 16, 4.9 cells per element, U = 10^5: 12.69 % against 22.60 % predicted; this form
     * 12.82 %).
     */
    private double finiteRowFalseNegativeRate(final long others, final long n, final double alphabet)
    {
        if (others < buckets)
        {
            return 0;
        }
        final double x = 1 / alphabet;
        final double clear = Math.pow(1 - 1 / fingerprints, buckets);
        final double hazard = (others - buckets + 1) * Math.pow(1 - 1 / fingerprints, buckets - 1) /
            (buckets * alphabet);
        final double all = Geometric.doubleSum(x, n);
        return clear * (all - Geometric.doubleSum(Geometric.product(x, hazard), n)) / all;
    }

    /**
     * The paper's model: {@link #falseNegativeRate} with every row taking 1/N of the arrivals (exact as U/N → ∞).
     *
     * @param n        stream length.
     * @param alphabet U.
     * @return the FNR at the mean traffic per row.
     */
    public double meanTrafficFalseNegativeRate(final long n, final double alphabet)
    {
        final double x = 1 / alphabet;
        return weightedDoubleSum(x, n) / Geometric.doubleSum(x, n);
    }

    /**
     * @param share U / K for a row that K other elements of the alphabet share.
     * @return this model with the row's traffic 1/share per arrival instead of 1 / N.
     */
    QhtModel atShare(final double share)
    {
        return new QhtModel(rows, buckets, fingerprintBits, fingerprints, share);
    }

    /**
     * The paper's FNR_n = (1/n) Σ_{m=1}^{n} FN_m (Th. 4.2, Appendix B), FN_m = Σ_i (1/U) q^{m−i} FN_{i,m}: the
     * fraction of all elements that are duplicates judged UNSEEN.
     *
     * @param n        stream length.
     * @param alphabet U.
     * @return the paper's FNR_n.
     */
    public double paperFalseNegativeRate(final long n, final double alphabet)
    {
        return weightedDoubleSum(1 / alphabet, n + 1.0) / alphabet / n;
    }

    /**
     * Appendix B: FNR_∞ = 1 − b − (1 − b)/(U − (U − 1)(1 − a)) + ab/((1 − a − c)(U − (U − 1)(1 − a)))
     * − ab/((1 − a − c)(U − (U − 1)c)).
     *
     * @param alphabet U.
     * @return FNR_∞ for that alphabet.
     */
    public double paperAsymptoticFalseNegativeRate(final double alphabet)
    {
        final double kept = alphabet - (alphabet - 1) * (1 - evict);
        final double filled = alphabet - (alphabet - 1) * (1 - fill);
        return 1 - saturation - (1 - saturation) / kept + coupling / kept - coupling / filled;
    }

    /** Σ_{m=0}^{n−1} Σ_{t&lt;m} (1 − x)^t FN(t). */
    private double weightedDoubleSum(final double x, final double n)
    {
        final double plain = Geometric.doubleSum(x, n);
        final double kept = Geometric.doubleSum(Geometric.product(x, evict), n);
        final double filled = Geometric.doubleSum(Geometric.product(x, fill), n);
        return (1 - saturation) * (plain - kept) + coupling * (kept - filled);
    }

    @Override
    public String toString()
    {
        return "QHT(N=" + rows + ", k=" + buckets + ", s=" + fingerprintBits + ")";
    }
}
