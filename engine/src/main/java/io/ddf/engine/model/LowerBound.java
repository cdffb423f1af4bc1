package io.ddf.engine.model;

/**
 * Sliding-window paper Theorem 4: on a stream of n elements drawn uniformly from an alphabet of U elements, any
 * duplicate detection filter of M bits has error rate FPR + FNR ≥ 1 − (1 − (1 − 1/U)^M) / (1 − (1 − 1/U)^n) for n &gt;
 * M, and asymptotically ≥ (1 − 1/U)^M ≈ 1 − M/U. The bound is not tight.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
public final class LowerBound
{
    private LowerBound()
    {
    }

    /**
     * @param n          stream length, more than M.
     * @param memoryBits M.
     * @param alphabet   U.
     * @return the lower bound on FPR + FNR.
     */
    public static double errorRate(final long n, final long memoryBits, final double alphabet)
    {
        if (n <= memoryBits)
        {
            throw new IllegalArgumentException("Theorem 4 needs n > M, got n=" + n + ", M=" + memoryBits);
        }
        final double x = 1 / alphabet;
        return 1 - -Math.expm1(memoryBits * Math.log1p(-x)) / -Math.expm1(n * Math.log1p(-x));
    }

    /**
     * @param memoryBits M.
     * @param alphabet   U.
     * @return (1 − 1/U)^M, the bound as n → ∞.
     */
    public static double asymptoticErrorRate(final long memoryBits, final double alphabet)
    {
        return Math.exp(memoryBits * Math.log1p(-1 / alphabet));
    }
}
