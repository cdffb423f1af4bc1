package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.stream.ZipfSampler;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Zipf sampler's frequencies: chi-square on a small alphabet, rank-frequency slope on a 2^32 alphabet. */
class ZipfSamplerTest
{
    @Test
    void chiSquareAgainstTheExactLawOnFiftyRanks()
    {
        final long seed = TestSeed.seed();
        for (final double exponent : new double[] {0.0, 0.8, 1.0, 1.5})
        {
            final int n = 50;
            final int samples = 200_000;
            final ZipfSampler sampler = new ZipfSampler(n, exponent);
            final SplittableRandom random = new SplittableRandom(seed);
            final long[] counts = new long[n + 1];
            for (int i = 0; i < samples; i++)
            {
                final long k = sampler.sample(random);
                assertTrue(k >= 1 && k <= n, "rank out of range: " + k);
                counts[(int)k]++;
            }
            double norm = 0;
            for (int k = 1; k <= n; k++)
            {
                norm += Math.pow(k, -exponent);
            }
            double chi2 = 0;
            for (int k = 1; k <= n; k++)
            {
                final double expected = samples * Math.pow(k, -exponent) / norm;
                chi2 += (counts[k] - expected) * (counts[k] - expected) / expected;
            }
            // 49 degrees of freedom: P(chi2 > 85.4) = 0.001.
            assertTrue(chi2 < 85.4, "exponent " + exponent + ": chi2 = " + chi2 + ", seed=" + seed);
        }
    }

    @Test
    void rankFrequencySlopeOnA32BitAlphabet()
    {
        final long seed = TestSeed.seed();
        final double exponent = 1.2;
        final ZipfSampler sampler = new ZipfSampler(1L << 32, exponent);
        final SplittableRandom random = new SplittableRandom(seed);
        final int top = 16;
        final long[] counts = new long[top + 1];
        for (int i = 0; i < 500_000; i++)
        {
            final long k = sampler.sample(random);
            assertTrue(k >= 1 && k <= 1L << 32);
            if (k <= top)
            {
                counts[(int)k]++;
            }
        }
        // Least-squares slope of log(count) against log(rank) over ranks 1..16 must be -exponent.
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (int k = 1; k <= top; k++)
        {
            final double x = Math.log(k);
            final double y = Math.log(counts[k]);
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        final double slope = (top * sxy - sx * sy) / (top * sxx - sx * sx);
        assertEquals(-exponent, slope, 0.05, "slope " + slope + ", seed=" + seed);
    }
}
