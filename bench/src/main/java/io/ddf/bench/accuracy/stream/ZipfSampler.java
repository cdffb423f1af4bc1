package io.ddf.bench.accuracy.stream;

import java.util.SplittableRandom;

/**
 * Draws ranks 1..n with P(k) proportional to k^-exponent by rejection-inversion (Hörmann and Derflinger, "Rejection-
 * inversion to generate variates from monotone discrete distributions", 1996): constant memory and expected O(1)
 * time for any n, so alphabets of 2^32 need no table. Any exponent ≥ 0 (0 is uniform).
 */
public final class ZipfSampler
{
    private final long n;
    private final double exponent;
    private final double hIntegralX1;
    private final double hIntegralN;
    private final double s;

    /**
     * @param n        number of ranks, at least 1.
     * @param exponent the exponent, at least 0.
     */
    public ZipfSampler(final long n, final double exponent)
    {
        if (n < 1 || !(exponent >= 0))
        {
            throw new IllegalArgumentException("need n >= 1 and exponent >= 0, got n=" + n + ", exponent=" + exponent);
        }
        this.n = n;
        this.exponent = exponent;
        this.hIntegralX1 = hIntegral(1.5) - 1.0;
        this.hIntegralN = hIntegral(n + 0.5);
        this.s = 2.0 - hIntegralInverse(hIntegral(2.5) - h(2));
    }

    /**
     * @param random the source of uniform variates.
     * @return a rank in 1..n.
     */
    public long sample(final SplittableRandom random)
    {
        while (true)
        {
            final double u = hIntegralN + random.nextDouble() * (hIntegralX1 - hIntegralN);
            final double x = hIntegralInverse(u);
            long k = (long)(x + 0.5);
            if (k < 1)
            {
                k = 1;
            }
            else if (k > n)
            {
                k = n;
            }
            // Accept at once when k is close enough to x (the hat equals the density there), else test exactly.
            if (k - x <= s || u >= hIntegral(k + 0.5) - h(k))
            {
                return k;
            }
        }
    }

    /** H(x) = ((x^(1-q)) - 1) / (1 - q), an antiderivative of h (log x when q = 1). */
    private double hIntegral(final double x)
    {
        final double logX = Math.log(x);
        return helper2((1.0 - exponent) * logX) * logX;
    }

    private double h(final double x)
    {
        return Math.exp(-exponent * Math.log(x));
    }

    private double hIntegralInverse(final double x)
    {
        double t = x * (1.0 - exponent);
        if (t < -1.0)
        {
            // Rounding can push t just below -1, where log1p is undefined.
            t = -1.0;
        }
        return Math.exp(helper1(t) * x);
    }

    /** log1p(x) / x, accurate near 0. */
    private static double helper1(final double x)
    {
        return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - x * 0.25));
    }

    /** expm1(x) / x, accurate near 0. */
    private static double helper2(final double x)
    {
        return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + x * 0.25));
    }
}
