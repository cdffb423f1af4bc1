package io.ddf.engine.model;

/**
 * The stable-point false positive rate of a Stable Bloom Filter (Deng and Rafiei), as quoted in the QHT paper
 * footnote 12: FPR = (1 − (1 / (1 + 1 / (P (1/K − 1/m))))^Max)^K, for m cells of maximum value Max, K hash
 * functions and P decrements per arrival. It is the limit after many insertions (asymptotic only); the engine's
 * sbf derives P from a target FPR by inverting it.
 *
 * <p>Along the stream (an instance): every arrival sets its K cells to Max and decrements each cell with
 * probability d = P/m, and a given cell is set by another arrival with probability r = K/m. A cell last set τ
 * arrivals ago is zero iff it took at least Max decrements since, G(τ) = P(Poisson(dτ) ≥ Max).
 * <ul>
 *   <li>An element last seen t arrivals ago: its cell is zero with z(t) = e^{−rt} G(t) + ∫_0^t r e^{−rτ} G(τ) dτ
 *       (the last set is the element's own, or another's τ ago), and FN(t) = 1 − (1 − z(t))^K.</li>
 *   <li>An unseen element after m arrivals: a cell of the empty table is non-zero iff set τ ≤ m ago with fewer
 *       than Max decrements since, FP_m = (∫_0^m r e^{−rτ} (1 − G(τ)) dτ)^K, which tends to the stable point.</li>
 * </ul>
 * Both in closed form: ∫_0^x r e^{−rτ} e^{−dτ} (dτ)^j / j! dτ = r d^j / (r + d)^{j+1} · P(Gamma(j + 1) ≤ (r + d)x).
 * The K cells are taken as independent (they are distinct cells of a large table).
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
public final class StableBloomModel
{
    private final int hashes;
    private final int maximum;
    private final double set;
    private final double decrement;

    /**
     * @param cells       m.
     * @param hashes      K.
     * @param maximum     Max = 2^d − 1.
     * @param decrements  P.
     */
    public StableBloomModel(final long cells, final int hashes, final int maximum, final long decrements)
    {
        if (decrements < 1 || hashes < 1 || cells <= hashes || maximum < 1)
        {
            throw new IllegalArgumentException("need P >= 1, K >= 1, m > K, Max >= 1");
        }
        this.hashes = hashes;
        this.maximum = maximum;
        this.set = (double)hashes / cells;
        this.decrement = Math.min(1.0, (double)decrements / cells);
    }

    /**
     * @param insertions m, arrivals so far.
     * @return FP_m.
     */
    public double falsePositive(final long insertions)
    {
        return Math.pow(setAndAlive(insertions), hashes);
    }

    /**
     * @param later t, arrivals since the element's last occurrence.
     * @return FN(t).
     */
    public double falseNegative(final long later)
    {
        final double t = later;
        final double zeroAfterOwn = Math.exp(-set * t) * atLeastMax(decrement * t);
        final double zeroAfterOther = -Math.expm1(-set * t) - setAndAlive(t);
        return 1 - Math.pow(1 - zeroAfterOwn - zeroAfterOther, hashes);
    }

    /** ∫_0^x r e^{−rτ} (1 − G(τ)) dτ. */
    private double setAndAlive(final double x)
    {
        final double rate = set + decrement;
        double sum = 0;
        for (int j = 0; j < maximum; j++)
        {
            sum += set * Math.pow(decrement, j) / Math.pow(rate, j + 1) * Poisson.atLeast(j + 1, rate * x);
        }
        return sum;
    }

    /** P(Poisson(mean) ≥ Max). */
    private double atLeastMax(final double mean)
    {
        return Poisson.atLeast(maximum, mean);
    }

    /**
     * @param decrements   P, at least 1.
     * @param hashes       K, at least 1.
     * @param cells        m, more than K.
     * @param maximum      Max = 2^d − 1.
     * @return the stable FPR.
     */
    public static double stableFalsePositiveRate(final long decrements, final int hashes, final long cells,
        final int maximum)
    {
        if (decrements < 1 || hashes < 1 || cells <= hashes || maximum < 1)
        {
            throw new IllegalArgumentException("need P >= 1, K >= 1, m > K, Max >= 1");
        }
        final double zeroCell = Math.pow(1 / (1 + 1 / (decrements * (1.0 / hashes - 1.0 / cells))), maximum);
        return Math.pow(1 - zeroCell, hashes);
    }
}
