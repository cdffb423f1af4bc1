package io.ddf.engine.bloom;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.MappedMemoryTestBase;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 003 Table 4 (695M elements drawn uniformly, 15% distinct; 64 to 512 MB), scaled down 1024 times: 678,711
 * elements at 2^19 to 2^22 bits, the same ratios of memory to stream and to distinct elements. The alphabet is
 * chosen so that the expected distinct fraction of a uniform draw is 15%. k = 2 for RSBF, BSBF, BSBFSD and RLBSBF
 * and p* = 0.03 (§6, §6.3); SBF with d = 2, K = 2 and a target FPR of 0.02 (seed 003 gives no SBF setting; these
 * are seed 000's). Ground truth from a BitSet.
 *
 * <p>Asserts, in every column, the paper's ordering by FNR SBF > BSBF > BSBFSD > RLBSBF and SBF > RSBF, each step
 * allowing a tie within {@link #TIE_POINTS}; and that BSBF, BSBFSD and RLBSBF land near the paper's own figures
 * (FNR and FPR within 30% of the paper's value plus 0.02 points: the smallest figures rest on ~100 events).
 *
 * <p>Not asserted: the paper's RSBF > BSBF. Alg. 1 as written inserts every one of the first s = M / k arrivals
 * without any reset, and s / t stays above p* after that; with s = 2^18 to 2^21 bits against 678,711 arrivals
 * (at full size 2^28 to 2^31 against 695M) RSBF is a plain Bloom filter for most or all of the stream and its FNR
 * is near 0, not the paper's 36% to 7%. The paper's RSBF figures need an implementation detail it does not give
 * (no single smaller reservoir size reproduces the column's shape either); the table is printed for comparison.
 */
class SamplingTable4ReproductionTest extends MappedMemoryTestBase
{
    private static final int SCALE = 1024;
    private static final int STREAM = 695_000_000 / SCALE;
    private static final double DISTINCT_FRACTION = 0.15;
    private static final long[] MEMORY_BITS = {(64L << 23) / SCALE, (128L << 23) / SCALE, (256L << 23) / SCALE,
        (512L << 23) / SCALE};
    private static final String[] MEMORY_NAMES = {"64 MB", "128 MB", "256 MB", "512 MB"};
    private static final FilterKind[] KINDS = {FilterKind.SBF, FilterKind.RSBF, FilterKind.BSBF, FilterKind.BSBFSD,
        FilterKind.RLBSBF};
    /** Table 4, % FPR, by memory then kind. */
    private static final double[][] PAPER_FPR = {
        {1.9319, 2.6276, 3.2569, 3.5475, 3.7064},
        {0.7414, 0.8903, 1.0128, 1.0530, 1.0821},
        {0.2384, 0.2637, 0.2822, 0.2881, 0.2924},
        {0.0688, 0.0719, 0.0747, 0.0753, 0.0759}};
    /** Table 4, % FNR, by memory then kind. */
    private static final double[][] PAPER_FNR = {
        {53.2681, 35.9014, 8.7547, 3.3299, 1.3453},
        {37.7853, 23.126, 3.888, 1.7048, 0.3773},
        {23.8930, 13.5047, 1.8199, 0.8551, 0.1010},
        {12.9392, 7.3674, 0.8794, 0.4267, 0.0262}};
    /** Two neighbours in the ordering whose FNRs differ by less than this many points count as tied. */
    private static final double TIE_POINTS = 0.5;
    /** How far BSBF, BSBFSD and RLBSBF may land from the paper's figures, relative... */
    private static final double RELATIVE_TOLERANCE = 0.3;
    /** ... plus absolute, in points. */
    private static final double ABSOLUTE_TOLERANCE_POINTS = 0.02;

    @Test
    void fnrOrderingAndBiasedSamplingFiguresOfTable4HoldAtScale()
    {
        final long seed = TestSeed.seed();
        final long[] stream = stream(seed);
        final StringBuilder failures = new StringBuilder();
        System.out.println("| memory | kind | FPR % (paper) | FNR % (paper) |");
        for (int c = 0; c < MEMORY_BITS.length; c++)
        {
            final double[] fpr = new double[KINDS.length];
            final double[] fnr = new double[KINDS.length];
            for (int j = 0; j < KINDS.length; j++)
            {
                final double[] rates = measure(builder(KINDS[j], MEMORY_BITS[c]).seed(seed + j), stream);
                fpr[j] = rates[0];
                fnr[j] = rates[1];
                System.out.printf("| %s (%d bits) | %s | %.4f (%.4f) | %.4f (%.4f) |%n", MEMORY_NAMES[c],
                    MEMORY_BITS[c], KINDS[j].cliName(), rates[0], PAPER_FPR[c][j], rates[1], PAPER_FNR[c][j]);
            }
            // Ordering: SBF above RSBF, and SBF above BSBF above BSBFSD above RLBSBF.
            final int[][] steps = {{0, 1}, {0, 2}, {2, 3}, {3, 4}};
            for (final int[] step : steps)
            {
                if (fnr[step[1]] > fnr[step[0]] + TIE_POINTS)
                {
                    failures.append(String.format("%s: FNR of %s %.4f above %s %.4f; ", MEMORY_NAMES[c],
                        KINDS[step[1]].cliName(), fnr[step[1]], KINDS[step[0]].cliName(), fnr[step[0]]));
                }
            }
            for (int j = 2; j < KINDS.length; j++)
            {
                if (!near(fnr[j], PAPER_FNR[c][j]) || !near(fpr[j], PAPER_FPR[c][j]))
                {
                    failures.append(String.format("%s %s: FPR %.4f FNR %.4f vs the paper's %.4f %.4f; ",
                        MEMORY_NAMES[c], KINDS[j].cliName(), fpr[j], fnr[j], PAPER_FPR[c][j], PAPER_FNR[c][j]));
                }
            }
        }
        assertTrue(failures.length() == 0, failures + "seed=" + seed);
    }

    private static boolean near(final double measured, final double paper)
    {
        return Math.abs(measured - paper) <= RELATIVE_TOLERANCE * paper + ABSOLUTE_TOLERANCE_POINTS;
    }

    /**
     * @param kind       a kind of the table.
     * @param memoryBits M.
     * @return its builder with the table's settings.
     */
    static FilterBuilder builder(final FilterKind kind, final long memoryBits)
    {
        final FilterBuilder builder = Filters.builder(kind).memoryBits(memoryBits);
        if (kind == FilterKind.SBF)
        {
            return builder.param("cell-bits", 2).param("hash-functions", 2).param("target-fpr", 0.02);
        }
        if (kind == FilterKind.RSBF)
        {
            builder.param("reservoir-threshold", 0.03);
        }
        return builder.param("hash-functions", 2);
    }

    /**
     * @param seed random seed.
     * @return {@link #STREAM} elements drawn uniformly from an alphabet U with U (1 − e^(−N/U)) = 15% N.
     */
    static long[] stream(final long seed)
    {
        // Solve (1 − e^−x) / x = f for x = N / U by bisection.
        double lo = 1e-6;
        double hi = 100;
        for (int i = 0; i < 200; i++)
        {
            final double x = (lo + hi) / 2;
            if ((1 - Math.exp(-x)) / x > DISTINCT_FRACTION)
            {
                lo = x;
            }
            else
            {
                hi = x;
            }
        }
        final int alphabet = (int)Math.round(STREAM / lo);
        return new SplittableRandom(seed).longs(STREAM, 0, alphabet).toArray();
    }

    /**
     * @param builder a filter's builder.
     * @param stream  elements, all below 2^31.
     * @return {FPR %, FNR %}.
     */
    static double[] measure(final FilterBuilder builder, final long[] stream)
    {
        final BitSet seen = new BitSet();
        long unseen = 0;
        long falsePositives = 0;
        long duplicates = 0;
        long falseNegatives = 0;
        try (DuplicateFilter filter = builder.create())
        {
            for (final long element : stream)
            {
                final boolean judgedDuplicate = filter.stream(element) == Verdict.DUPLICATE;
                if (seen.get((int)element))
                {
                    duplicates++;
                    falseNegatives += judgedDuplicate ? 0 : 1;
                }
                else
                {
                    seen.set((int)element);
                    unseen++;
                    falsePositives += judgedDuplicate ? 1 : 0;
                }
            }
        }
        return new double[] {100.0 * falsePositives / unseen, 100.0 * falseNegatives / duplicates};
    }
}
