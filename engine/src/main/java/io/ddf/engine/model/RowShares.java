package io.ddf.engine.model;

import java.util.function.LongToDoubleFunction;

/**
 * How a finite alphabet shares out among a table's rows, and the rates averaged over it.
 *
 * <p>QHT paper's proofs let every arrival land in a given row with probability 1/N. That is the rate of a row
 * averaged over rows, but over an alphabet of U elements a row only ever sees the K other elements that hash to
 * it, K ~ Binomial(U − 1, 1/N) ≈ Poisson(λ), λ = (U − 1)/N, and it sees them at K/U per arrival. The rates are
 * convex in that traffic (a row's state decays like e^{−tK/U}), so by Jensen's inequality the paper's model,
 * which plugs in the mean λ/U, overstates both the fill and the evictions: a row with K = 0 never gives a false
 * positive or a false negative at all, one with K = 1 forgets its element at a quarter of the rate of K = 4.
 * With k = 1 and an element last seen t arrivals ago the FNR's t-part is E[1 − e^{−tK/U}] against
 * 1 − e^{−tλ/U}; over the geometric t of a uniform stream that is 1 − (1 − e^{−λ})/λ against λ/(1 + λ), a gap
 * of about 1/λ² — 2.8 points at λ = 4.2 (M = 8·10^6 bits, k = 1, s = 2, U = 2^24: the one miss the tuner had),
 * 0.04 at λ = 50 (the same filter over 2^27, which the paper's model predicts exactly). The rates here are the
 * paper's per-row rates averaged over the Poisson law of K, with the row's traffic K/U (QHT's false negatives
 * with a row of K + 1 elements in k cells: see {@code QhtModel.finiteRowFalseNegativeRate}).
 *
 * <p>Above {@value #MIXTURE_LIMIT} expected others per row the gap is below 10^−6 and the plain model is used.
 * QHTD and QQHTD take the paper-style per-row model at the share U/K, which for k &gt; 1 and few others per row
 * still counts re-arrivals of stored elements as fresh (the validity note the tuner prints).
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
public final class RowShares
{
    /** Above this λ the plain model is within 10^−6 of the average. */
    static final double MIXTURE_LIMIT = 1000;
    /** Poisson terms kept: λ ± this many standard deviations (and a few more for small λ). */
    private static final double SIGMAS = 8;

    private final double lambda;
    private final double alphabet;

    /**
     * @param rows     N.
     * @param alphabet U ({@link Double#POSITIVE_INFINITY}: every row's traffic is 1/N; then {@link #plain()}).
     */
    public RowShares(final long rows, final double alphabet)
    {
        this.alphabet = alphabet;
        this.lambda = (alphabet - 1) / rows;
    }

    /** @return λ, the expected number of other elements of the alphabet per row. */
    public double othersPerRow()
    {
        return lambda;
    }

    /** @return true when the plain model is used (λ large or U infinite). */
    public boolean plain()
    {
        return Double.isInfinite(alphabet) || lambda > MIXTURE_LIMIT;
    }

    /**
     * @param rateWithOthers the rate of a row that K ≥ 1 other elements of the alphabet share (its traffic K/U per
     *                       arrival); a row with K = 0 contributes 0 (nothing evicts or collides with its element).
     * @return E_K[rateWithOthers(K)], K ~ Poisson(λ).
     */
    public double average(final LongToDoubleFunction rateWithOthers)
    {
        final long low = (long)Math.max(1, Math.floor(lambda - SIGMAS * Math.sqrt(lambda) - SIGMAS));
        final long high = (long)Math.ceil(lambda + SIGMAS * Math.sqrt(lambda) + SIGMAS);
        double logFactorial = 0; // ln K!, built up as K grows
        for (long k = 2; k < low; k++)
        {
            logFactorial += Math.log(k);
        }
        double sum = 0;
        for (long k = low; k <= high; k++)
        {
            logFactorial += Math.log(k);
            final double poisson = Math.exp(-lambda + k * Math.log(lambda) - logFactorial);
            sum += poisson * rateWithOthers.applyAsDouble(k);
        }
        return sum;
    }
}
