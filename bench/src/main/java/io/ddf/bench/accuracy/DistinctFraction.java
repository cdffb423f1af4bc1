package io.ddf.bench.accuracy;

/**
 * Seeds 003 and 004 describe their synthetic streams by length and share of distinct elements. A uniform draw of N
 * elements from U has U (1 − e^(−N/U)) distinct elements in expectation, so the alphabet giving a share f solves
 * (1 − e^(−x)) / x = f for x = N / U. Scaling N and U together keeps x, hence the share.
 */
public final class DistinctFraction
{
    private DistinctFraction()
    {
    }

    /**
     * @param length   N.
     * @param fraction f, in (0, 1).
     * @return the alphabet U, rounded.
     */
    public static long alphabet(final long length, final double fraction)
    {
        if (!(fraction > 0 && fraction < 1))
        {
            throw new IllegalArgumentException("distinct fraction must be in (0, 1), got " + fraction);
        }
        // (1 − e^−x) / x falls from 1 (x → 0) to 0: bisect.
        double lo = 1e-9;
        double hi = 1e3;
        for (int i = 0; i < 200; i++)
        {
            final double x = (lo + hi) / 2;
            if (-Math.expm1(-x) / x > fraction)
            {
                lo = x;
            }
            else
            {
                hi = x;
            }
        }
        return Math.max(1, Math.round(length / lo));
    }
}
