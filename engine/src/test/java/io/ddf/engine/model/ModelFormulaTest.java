package io.ddf.engine.model;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The models' formulas against values worked out by hand and against direct sums of the theorems' terms. */
class ModelFormulaTest
{
    private static final double EXACT = 1e-12;

    @Test
    void qhtFalsePositiveStartsAtZeroAndTendsToKOverS()
    {
        final QhtModel model = new QhtModel(1000, 2, 3); // S = 7
        assertEquals(0, model.falsePositive(0), EXACT);
        // one insertion: (2/7)(1 − (1 − 1/2000)) = 1/7000
        assertEquals(1.0 / 7000, model.falsePositive(1), EXACT);
        assertEquals(2.0 / 7, model.falsePositive(1_000_000_000L), EXACT);
        assertEquals(2.0 / 7, model.asymptoticFalsePositiveRate(), EXACT);
        assertEquals(5.0 / 7, model.asymptoticFalseNegativeRate(), EXACT);
        assertTrue(model.falsePositive(100) < model.falsePositive(1000));
    }

    @Test
    void qhtFalseNegativeStartsAtZeroAndTendsToOneMinusKOverS()
    {
        final QhtModel model = new QhtModel(1000, 2, 3);
        assertEquals(0, model.falseNegative(0), EXACT);
        // k = 2, N = 1000, S = 7: a = 5 / (2 · 6999); one insertion evicts with probability a, and nothing can
        // have replaced it in the same step: FN(1) = a(1 − b) + ab·(1 − 1)/(…)… = a(1 − b) + ab = a.
        assertEquals(5.0 / (2 * 6999), model.falseNegative(1), EXACT);
        assertEquals(5.0 / 7, model.falseNegative(1_000_000_000L), 1e-9);
    }

    @Test
    void qhtFiniteStreamRatesEqualTheDirectSums()
    {
        final QhtModel model = new QhtModel(300, 2, 4);
        final int n = 3000;
        final double alphabet = 5000;
        final double q = 1 - 1 / alphabet;
        double fpWeighted = 0;
        double unseen = 0;
        double paperFp = 0;
        double fnJoint = 0;
        double duplicates = 0;
        double paperFn = 0;
        for (int m = 0; m <= n; m++)
        {
            double fnm = 0; // the paper's FN_m = Σ_i (1/U) q^{m−i} FN_{i,m}
            double dup = 0;
            for (int t = 0; t < m; t++)
            {
                fnm += Math.pow(q, t) / alphabet * model.falseNegative(t);
                dup += Math.pow(q, t) / alphabet;
            }
            if (m < n)
            {
                fpWeighted += Math.pow(q, m) * model.falsePositive(m);
                unseen += Math.pow(q, m);
                fnJoint += fnm;
                duplicates += dup;
            }
            if (m >= 1)
            {
                paperFp += model.falsePositive(m);
                paperFn += fnm;
            }
        }
        assertEquals(fpWeighted / unseen, model.meanTrafficFalsePositiveRate(n, alphabet), 1e-9);
        assertEquals(fnJoint / duplicates, model.meanTrafficFalseNegativeRate(n, alphabet), 1e-9);
        assertEquals(paperFp / n, model.paperFalsePositiveRate(n), 1e-9);
        assertEquals(paperFn / n, model.paperFalseNegativeRate(n, alphabet), 1e-9);
    }

    @Test
    void qhtFalseNegativeRateTendsToAppendixBsLimit()
    {
        final QhtModel model = new QhtModel(10_922, 2, 3);
        final double alphabet = 1 << 20;
        final double limit = model.paperAsymptoticFalseNegativeRate(alphabet);
        assertEquals(limit, model.meanTrafficFalseNegativeRate(10_000_000_000L, alphabet), 1e-4);
        // U ≫ N: the limit is 1 − k/S (Th. 4.2)
        assertEquals(5.0 / 7, new QhtModel(100, 2, 3).paperAsymptoticFalseNegativeRate(1e15), 1e-9);
    }

    @Test
    void qhtRatesAverageTheRowsShareOfAFiniteAlphabet()
    {
        // k = 1: a row holds the fingerprint of its last arrival, so over a long uniform stream an element last
        // seen t arrivals ago is judged UNSEEN with probability (1 − 1/S)(1 − e^{−tK/U}) for K others in its row,
        // K ~ Poisson(λ). With t geometric of mean U that averages to (1 − 1/S)(1 − (1 − e^{−λ})/λ), and the FPR
        // to (1/S)(1 − (1 − e^{−λ})/λ): the paper's λ/(1 + λ) in place of 1 − (1 − e^{−λ})/λ is the model miss.
        final long rows = 4_000_000;
        final double alphabet = 1 << 24;
        final QhtModel model = new QhtModel(rows, 1, 2); // S = 3; M = 8·10^6 bits, the tuner's pick there
        final double lambda = (alphabet - 1) / rows;
        final double share = 1 - -Math.expm1(-lambda) / lambda;
        final long n = 20_000_000_000L; // long enough for the limit
        assertEquals(share / 3, model.falsePositiveRate(n, alphabet), 2e-4);
        assertEquals(share * 2 / 3, model.falseNegativeRate(n, alphabet), 2e-4);
        assertEquals(lambda / (1 + lambda) * 2 / 3, model.meanTrafficFalseNegativeRate(n, alphabet), 2e-4);
        // λ = 50 (the same memory over 2^27 with s = 3): the average and the paper's model agree within 0.1 points
        final QhtModel wide = QhtModel.forMemory(8_000_000, 1, 3);
        assertEquals(wide.meanTrafficFalseNegativeRate(150_000_000, 1 << 27), wide.falseNegativeRate(150_000_000,
            1 << 27), 1e-3);
    }

    @Test
    void qhtdAsymptotes()
    {
        final QhtdModel one = new QhtdModel(1, 2); // S = 3
        assertEquals(1.0 / 3, one.asymptoticFalsePositiveRate(), EXACT);
        assertEquals(2.0 / 3, one.asymptoticFalseNegativeRate(), EXACT);
        final QhtdModel two = new QhtdModel(2, 2); // 1 − (2/3)^2
        assertEquals(5.0 / 9, two.asymptoticFalsePositiveRate(), EXACT);
        assertEquals(4.0 / 9, two.asymptoticFalseNegativeRate(), EXACT);
    }

    @Test
    void shortHashFilters()
    {
        // CSHF, M = 10w, w = 1000: 1 − (1 − 1/1024)^1000 = 1 − e^(1000 ln(1023/1024)) = 0.62357
        assertEquals(0.62357, ShortHashModel.paperFalsePositive(10_000, 1000, true), 1e-5);
        // SHF, M = 2w(h + ½ log2 w) with w = 1024, h = 20: M = 2048 · 25 = 51200; √(w 2^(−M/w)) = 2^-20
        assertEquals(-Math.expm1(1024 * Math.log1p(-Math.pow(2, -20))),
            ShortHashModel.paperFalsePositive(51_200, 1024, false), EXACT);
        assertEquals(20, ShortHashModel.fingerprintBits(51_200, 1024, false));
        assertEquals(50, ShortHashModel.fingerprintBits(51_200, 1024, true));
        final ShortHashModel built = ShortHashModel.forMemory(51_200, 1024, false);
        // as built: F = 2^20 − 1
        assertEquals(1 - Math.pow(1 - 1.0 / 1_048_575, 1024), built.falsePositive(), 1e-12);
        assertEquals(0, built.falseNegative());
        assertEquals(0, built.falsePositiveAfter(0), EXACT);
        // a stream of 2w: the first w average 1 − (1 − p)^m over m < w, then the steady state
        final ShortHashModel small = new ShortHashModel(4, 2); // p = 1/3
        final double expected = (0 + 1 / 3.0 + 5 / 9.0 + 19 / 27.0 + 4 * (1 - 16 / 81.0)) / 8;
        assertEquals(expected, small.falsePositiveRate(8), EXACT);
    }

    @Test
    void lowerBoundOfTheorem4()
    {
        // U = 2, M = 1, n = 2: 1 − (1 − 1/2) / (1 − 1/4) = 1/3
        assertEquals(1.0 / 3, LowerBound.errorRate(2, 1, 2), EXACT);
        assertEquals(0.5, LowerBound.asymptoticErrorRate(1, 2), EXACT);
        assertEquals(Math.exp(-1), LowerBound.asymptoticErrorRate(1 << 20, 1 << 20), 1e-6);
        assertThrows(IllegalArgumentException.class, () -> LowerBound.errorRate(10, 10, 100));
    }

    @Test
    void stableBloomStablePoint()
    {
        // P = 1, K = 2, m → ∞, Max = 3: (1 − (1/(1 + 2))^3)^2 = (26/27)^2
        assertEquals(676.0 / 729, StableBloomModel.stableFalsePositiveRate(1, 2, 1_000_000_000_000L, 3), 1e-9);
        // P = 2, K = 1, m = 2, Max = 1: P(1 − 1/2) = 1, so 1 − 1/2 = 1/2
        assertEquals(0.5, StableBloomModel.stableFalsePositiveRate(2, 1, 2, 1), EXACT);
    }

    @Test
    void queuingFalseNegativeAveragesTheDistances()
    {
        final QhtModel sub = new QhtModel(200, 1, 4);
        for (final double alphabet : new double[] {Double.POSITIVE_INFINITY, 3000})
        {
            final QueuingModel model = new QueuingModel(sub, 4, 250, alphabet);
            final double q = 1 - 1 / alphabet;
            for (final long r : new long[] {1, 77, 250})
            {
                double sum = 0;
                double weights = 0;
                for (long d = 1; d <= 1000; d++)
                {
                    sum += Math.pow(q, d - 1) * model.falseNegative(r, d);
                    weights += Math.pow(q, d - 1);
                }
                assertEquals(sum / weights, model.falseNegative(r), 1e-10, "r=" + r + " U=" + alphabet);
            }
        }
    }

    @Test
    void queuingOverPerfectSubfiltersOnlyMissesWhatWasRecycled()
    {
        final SubfilterModel perfect = new SubfilterModel()
        {
            @Override
            public double falsePositive(final long insertions)
            {
                return 0;
            }

            @Override
            public double falseNegative(final long later)
            {
                return 0;
            }

            @Override
            public double weightedFalseNegativeSum(final long count, final double x)
            {
                return 0;
            }
        };
        final long l = 10;
        final long c = 100;
        final QueuingModel model = new QueuingModel(perfect, l, c, Double.POSITIVE_INFINITY);
        assertEquals(0, model.falsePositiveRate(), EXACT);
        // at phase r the last c − r of the w positions are recycled: mean (c − r)/w over r = 1..c is (c − 1)/(2w)
        assertEquals((c - 1) / (2.0 * c * l), model.falseNegativeRate(), EXACT);
        // Theorem 8 as printed: u_η = 1 − η/w, so ≈ (1 − 1/L)^(L−1) · mean(1 − ℓ/w) ≈ 0.37, not ≈ 0
        final double paper = new QueuingPaperModel(perfect, l, c, Double.POSITIVE_INFINITY).falseNegativeRate();
        System.out.printf("perfect subfilters, L=%d c=%d: FNR corrected %.4f, Theorem 8 as printed %.4f%n", l, c,
            model.falseNegativeRate(), paper);
        assertEquals(Math.pow(0.9, 9) * (1 - 49.5 / 1000), paper, 1e-12);
    }

    @Test
    void queuingWithOneSubfilterIsTheSubfilter()
    {
        final QhtModel sub = new QhtModel(500, 1, 3);
        final QueuingModel model = new QueuingModel(sub, 1, 800, Double.POSITIVE_INFINITY);
        assertEquals(sub.falsePositive(300), model.falsePositive(300), EXACT);
        assertEquals(sub.falseNegative(99), model.falseNegative(300, 100), EXACT);
        assertEquals(1 - sub.falsePositive(300), model.falseNegative(300, 301), EXACT);
    }
}
