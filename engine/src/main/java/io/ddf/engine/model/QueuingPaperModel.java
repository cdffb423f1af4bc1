package io.ddf.engine.model;

/**
 * Sliding-window paper Theorems 5–8 as printed, for L subfilters of c insertions (w = cL), alphabet U:
 * <ul>
 *   <li>Th. 5: FP_{Q,m} = 1 − (1 − FP_{F,c})^{L−1}(1 − FP_{F,m mod c});</li>
 *   <li>Th. 6: FN_{Q,m} = u_c^{L−1} u_{m mod c}, u_η = p_η FN_{F,η} + (1 − p_η)(1 − FP_{F,η}),
 *       p_η = (1 − (1 − 1/U)^η) / (1 − (1 − 1/U)^w);</li>
 *   <li>Th. 7: FPR = 1 − ((1 − FP_{F,c})^{L−1} / c) Σ_{ℓ=0}^{c−1} (1 − FP_{F,ℓ});</li>
 *   <li>Th. 8: FNR = (u_c^{L−1} / c) Σ_{ℓ=0}^{c−1} u_ℓ.</li>
 * </ul>
 * The paper does not define FN_{F,η} for a subfilter; here it is FN_F(t) averaged over the element's position
 * among the η insertions. Theorem 6 treats "the element lies in sub-window i" as independent events of
 * probability p_η each, whereas the last occurrence lies in exactly one: with perfect subfilters it still predicts
 * FN ≈ (1 − 1/L)^L ≈ 1/e. {@link QueuingModel} is the corrected form; this class is kept to print next to it.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
public final class QueuingPaperModel
{
    private final SubfilterModel subfilter;
    private final long subfilters;
    private final long perSubfilter;
    private final double x;

    /**
     * @param subfilter    the model of one subfilter.
     * @param subfilters   L.
     * @param perSubfilter c.
     * @param alphabet     U.
     */
    public QueuingPaperModel(final SubfilterModel subfilter, final long subfilters, final long perSubfilter,
        final double alphabet)
    {
        if (subfilters < 1 || perSubfilter < 1)
        {
            throw new IllegalArgumentException("need L >= 1 and c >= 1");
        }
        this.subfilter = subfilter;
        this.subfilters = subfilters;
        this.perSubfilter = perSubfilter;
        this.x = 1 / alphabet;
    }

    /** @return Theorem 7's FPR. */
    public double falsePositiveRate()
    {
        double clear = 0;
        for (long l = 0; l < perSubfilter; l++)
        {
            clear += 1 - subfilter.falsePositive(l);
        }
        return 1 - Math.pow(1 - subfilter.falsePositive(perSubfilter), subfilters - 1) * clear / perSubfilter;
    }

    /** @return Theorem 8's FNR. */
    public double falseNegativeRate()
    {
        double sum = 0;
        for (long l = 0; l < perSubfilter; l++)
        {
            sum += u(l);
        }
        return Math.pow(u(perSubfilter), subfilters - 1) * sum / perSubfilter;
    }

    /** u_η = p_η FN_{F,η} + (1 − p_η)(1 − FP_{F,η}). */
    double u(final long eta)
    {
        final long w = subfilters * perSubfilter;
        final double p = x == 0 ? (double)eta / w : -Math.expm1(eta * Math.log1p(-x)) / -Math.expm1(w * Math.log1p(-x));
        final double fn = eta == 0 ? 0 : subfilter.weightedFalseNegativeSum(eta, 0) / eta;
        return p * fn + (1 - p) * (1 - subfilter.falsePositive(eta));
    }
}
