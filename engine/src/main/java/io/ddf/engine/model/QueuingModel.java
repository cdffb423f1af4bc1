package io.ddf.engine.model;

/**
 * The error model of the queuing construction (sliding-window paper §5) as the engine rotates it: L subfilters of c
 * insertions, window w = cL, on a stream drawn uniformly from an alphabet of U elements, in the steady state.
 *
 * <p>An element arriving when the newest subfilter holds r of its c insertions (r uniform on 1..c: the engine looks
 * up before recycling, so r = c means L full subfilters) is judged against L − 1 full subfilters and one of r.
 * <ul>
 *   <li>False positive (Theorem 5, with r for m mod c): FP(r) = 1 − (1 − FP_c)^{L−1}(1 − FP_r); the FPR is its
 *       mean over r (Theorem 7).</li>
 *   <li>False negative: here the model departs from Theorem 6. Theorem 6 multiplies, over the subfilters,
 *       independent chances p_η ≈ η/w that the element lies in each sub-window, so even perfect subfilters get
 *       FN = Π(1 − p) ≈ 1/e. But the last occurrence lies in exactly one place: at distance d back (weight
 *       q^{d−1}, d = 1..w, q = 1 − 1/U), it is either in the newest subfilter (d ≤ r, t = d − 1 later insertions
 *       there), in full subfilter j (t = d − r − (j−1)c − 1), or already recycled (d &gt; c(L − 1) + r). It is
 *       judged UNSEEN iff the holding subfilter says so, FN_F(t), and every other subfilter avoids a false positive.
 *       {@link QueuingPaperModel} keeps Theorems 6 and 8 as printed.</li>
 * </ul>
 * The subfilter model is applied to each subfilter as if independent of the others (they are: each sees its own c
 * elements). Averages over r are exact for c ≤ {@value #EXACT_PHASES} (by default), otherwise taken at the
 * midpoints of that many equal strata (the terms are smooth in r).
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
public final class QueuingModel
{
    /** Up to this many phases r the averages are exact sums. */
    static final int EXACT_PHASES = 1024;

    private final SubfilterModel subfilter;
    private final long subfilters;
    private final long perSubfilter;
    private final double x;
    private final double fullClear;
    private final int phases;

    /**
     * @param subfilter    the model of one subfilter (of M / L bits).
     * @param subfilters   L, at least 1.
     * @param perSubfilter c, at least 1.
     * @param alphabet     U ({@link Double#POSITIVE_INFINITY}: a duplicate's last occurrence uniform over the
     *                     window).
     */
    public QueuingModel(final SubfilterModel subfilter, final long subfilters, final long perSubfilter,
        final double alphabet)
    {
        this(subfilter, subfilters, perSubfilter, alphabet, EXACT_PHASES);
    }

    /**
     * @param subfilter    the model of one subfilter.
     * @param subfilters   L.
     * @param perSubfilter c.
     * @param alphabet     U.
     * @param phases       how many phases r the averages evaluate at most (fewer: faster and coarser, for a
     *                     first pass over many candidates).
     */
    public QueuingModel(final SubfilterModel subfilter, final long subfilters, final long perSubfilter,
        final double alphabet, final int phases)
    {
        if (subfilters < 1 || perSubfilter < 1 || phases < 1)
        {
            throw new IllegalArgumentException("need L >= 1, c >= 1 and phases >= 1");
        }
        this.phases = phases;
        this.subfilter = subfilter;
        this.subfilters = subfilters;
        this.perSubfilter = perSubfilter;
        this.x = 1 / alphabet;
        this.fullClear = 1 - subfilter.falsePositive(perSubfilter);
    }

    /** @return w = cL. */
    public long window()
    {
        return subfilters * perSubfilter;
    }

    /**
     * @param phase r in 1..c, the newest subfilter's insertions before the element.
     * @return FP(r) = 1 − (1 − FP_c)^{L−1}(1 − FP_r).
     */
    public double falsePositive(final long phase)
    {
        return 1 - Math.pow(fullClear, subfilters - 1) * (1 - subfilter.falsePositive(phase));
    }

    /**
     * @param phase    r in 1..c.
     * @param distance d in 1..w: the last occurrence is d elements back (1 = the previous element).
     * @return the probability that the element is judged UNSEEN.
     */
    public double falseNegative(final long phase, final long distance)
    {
        final double newestClear = 1 - subfilter.falsePositive(phase);
        if (distance <= phase)
        {
            return subfilter.falseNegative(distance - 1) * Math.pow(fullClear, subfilters - 1);
        }
        final long back = distance - phase - 1;
        if (back < (subfilters - 1) * perSubfilter)
        {
            return subfilter.falseNegative(back % perSubfilter) * Math.pow(fullClear, subfilters - 2) * newestClear;
        }
        return Math.pow(fullClear, subfilters - 1) * newestClear;
    }

    /**
     * @param phase r in 1..c.
     * @return the false negative probability at phase r, averaged over d with weights q^{d−1}.
     */
    public double falseNegative(final long phase)
    {
        final long c = perSubfilter;
        final long l = subfilters;
        final double newestClear = 1 - subfilter.falsePositive(phase);
        final double others = Math.pow(fullClear, l - 1);
        final double newest = subfilter.weightedFalseNegativeSum(phase, x) * others;
        double full = 0;
        if (l > 1)
        {
            final double stride = -Math.expm1(c * Math.log1p(-x));
            full = Geometric.power(x, phase) * subfilter.weightedFalseNegativeSum(c, x) *
                Geometric.sum(stride, l - 1) * Math.pow(fullClear, l - 2) * newestClear;
        }
        final long covered = c * (l - 1) + phase;
        final double gone = Geometric.power(x, covered) * Geometric.sum(x, c * l - covered) * others * newestClear;
        return (newest + full + gone) / Geometric.sum(x, c * l);
    }

    /** @return the steady-state FPR: FP(r) averaged over r. */
    public double falsePositiveRate()
    {
        return averageOverPhases(true);
    }

    /** @return the steady-state FNR: FN(r) averaged over r. */
    public double falseNegativeRate()
    {
        return averageOverPhases(false);
    }

    private double averageOverPhases(final boolean positive)
    {
        final long c = perSubfilter;
        double sum = 0;
        if (c <= phases)
        {
            for (long r = 1; r <= c; r++)
            {
                sum += positive ? falsePositive(r) : falseNegative(r);
            }
            return sum / c;
        }
        for (int i = 0; i < phases; i++)
        {
            final long from = 1 + c * i / phases;
            final long to = c * (i + 1) / phases;
            final long r = (from + to) / 2;
            sum += (to - from + 1) * (positive ? falsePositive(r) : falseNegative(r));
        }
        return sum / c;
    }
}
