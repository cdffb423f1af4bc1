package io.ddf.engine.model;

/**
 * Geometric sums with the ratio given as 1 − x, so that ratios within 2^-50 of 1 (an alphabet of 2^40, a table of
 * 2^30 cells) keep their precision: the models' closed forms are all built from these two sums.
 */
final class Geometric
{
    /** Below this n·x the sums use their binomial series, where the closed forms would cancel. */
    private static final double SERIES_LIMIT = 1e-6;

    private Geometric()
    {
    }

    /**
     * @param x 1 − r, in [0, 1].
     * @param n number of terms, at least 0.
     * @return Σ_{i=0}^{n−1} r^i.
     */
    static double sum(final double x, final double n)
    {
        if (n <= 0)
        {
            return 0;
        }
        if (x >= 1)
        {
            return 1;
        }
        if (n * x < SERIES_LIMIT)
        {
            // Σ_i (1 − x)^i = Σ_j (−x)^j C(n, j + 1)
            return n - x * n * (n - 1) / 2 + x * x * n * (n - 1) * (n - 2) / 6;
        }
        return -Math.expm1(n * Math.log1p(-x)) / x;
    }

    /**
     * @param x 1 − r, in [0, 1].
     * @param n number of outer terms, at least 0.
     * @return Σ_{m=0}^{n−1} Σ_{t=0}^{m−1} r^t.
     */
    static double doubleSum(final double x, final double n)
    {
        if (n <= 1)
        {
            return 0;
        }
        if (n * x < SERIES_LIMIT)
        {
            // Σ_m Σ_t (1 − x)^t = Σ_j (−x)^j C(n, j + 2)
            return n * (n - 1) / 2 - x * n * (n - 1) * (n - 2) / 6 + x * x * n * (n - 1) * (n - 2) * (n - 3) / 24;
        }
        return (n - sum(x, n)) / x;
    }

    /**
     * @param x 1 − r, in [0, 1].
     * @param n exponent, at least 0.
     * @return r^n.
     */
    static double power(final double x, final double n)
    {
        if (n == 0)
        {
            return 1;
        }
        return x >= 1 ? 0 : Math.exp(n * Math.log1p(-x));
    }

    /**
     * @param x1 1 − r1.
     * @param x2 1 − r2.
     * @return 1 − r1·r2, computed without cancellation.
     */
    static double product(final double x1, final double x2)
    {
        return x1 + x2 - x1 * x2;
    }
}
