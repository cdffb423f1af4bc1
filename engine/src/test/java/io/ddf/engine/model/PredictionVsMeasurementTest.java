package io.ddf.engine.model;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.MappedMemoryTestBase;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Measured FPR and FNR of a QHT and of a queuing QHT against the models' predictions, on streams of the models'
 * assumptions: fresh elements drawn uniformly from 2^26 (so nearly every one is unseen, for the FPR), and with
 * probability {@value #REPEAT_PROBABILITY} a repeat of the element a controlled distance back (for the FNR).
 *
 * <p>The prediction is made element by element from what the model conditions on: an unseen element at position
 * m expects FP_m (the queue: FP at its phase r); a duplicate last seen d positions back expects FN(d − 1) (the
 * queue: FN at phase r and distance d). The averages over the stream are compared.
 *
 * <p>Tolerance: 4 binomial standard errors of the measured rate, plus 2 % of the prediction. The 2 % covers the one
 * way these streams leave the model: a repeat judged DUPLICATE is not inserted, so the ~{@value #REPEAT_PROBABILITY}
 * of steps that are caught repeats evict nothing, while the model counts every element as an insertion. The
 * subfilters have k = 1, where the model's "rows are full" assumption holds from the start (a row holding the
 * element is full); for k &gt; 1 the model is off by 1–3 points early in a stream (compare the Table 1 figures that
 * QuotientReproductionTest measures), so k = 4 is held to the model after the first Nk elements and gets that gap
 * before them.
 */
class PredictionVsMeasurementTest extends MappedMemoryTestBase
{
    private static final int ALPHABET_BITS = 26;
    private static final double REPEAT_PROBABILITY = 0.03;
    private static final double SIGMAS = 4;
    private static final double RELATIVE_SLACK = 0.02;
    /** The model's documented error for k &gt; 1 before the rows fill: up to 3 points. */
    private static final double EARLY_MODEL_GAP = 0.03;

    @Test
    void qhtMatchesTheorems41And42()
    {
        final long seed = TestSeed.seed();
        final long memory = 1 << 16;
        final QhtModel model = QhtModel.forMemory(memory, 1, 4); // N = 16384, S = 15
        final Rates rates = new Rates();
        final SplittableRandom random = new SplittableRandom(seed);
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).memoryBits(memory).buckets(1)
            .fingerprintBits(4).seed(random.nextLong()).create())
        {
            final int n = 300_000;
            final long[] stream = new long[n];
            final Map<Long, Integer> last = new HashMap<>();
            final int reach = (int)(4 * model.rows()); // FN(t) spans 0 … 0.9 of 1 − b over t < 4N
            for (int i = 0; i < n; i++)
            {
                stream[i] = i > reach && random.nextDouble() < REPEAT_PROBABILITY ?
                    stream[i - 1 - random.nextInt(reach)] : random.nextLong(1L << ALPHABET_BITS);
                final boolean judged = filter.stream(stream[i]) == Verdict.DUPLICATE;
                final Integer previous = last.put(stream[i], i);
                if (previous == null)
                {
                    rates.unseen(judged, model.falsePositive(i));
                }
                else
                {
                    rates.duplicate(judged, model.falseNegative(i - previous - 1L));
                }
            }
        }
        report("QHT N=" + model.rows() + " k=1 s=4, 300,000 elements", rates);
        // the uniform-stream form the tuner uses, for reference (no repeats: U = 2^26)
        System.out.printf("  uniform 2^26 stream of 300,000: FPR_n %.4f (paper's (1/n) sum %.4f)%n",
            model.falsePositiveRate(300_000, 1 << ALPHABET_BITS), model.paperFalsePositiveRate(300_000));
        rates.check();
    }

    @Test
    void queuingQhtMatchesTheQueuingModel()
    {
        final long seed = TestSeed.seed();
        final int subfilters = 8;
        final int perSubfilter = 4096;
        final int window = subfilters * perSubfilter;
        final long memory = 1 << 17; // 16,384 bits per subfilter: N = 4096 rows of one 4-bit cell
        final QhtModel sub = QhtModel.forMemory(memory / subfilters, 1, 4);
        final QueuingModel model = new QueuingModel(sub, subfilters, perSubfilter, Double.POSITIVE_INFINITY);
        final Rates rates = new Rates();
        final SplittableRandom random = new SplittableRandom(seed);
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).memoryBits(memory).buckets(1)
            .fingerprintBits(4).window(window).subfilters(subfilters).seed(random.nextLong()).create())
        {
            final int n = 400_000;
            final long[] stream = new long[n];
            final Map<Long, Integer> last = new HashMap<>();
            final int reach = window + window / 4; // some repeats fall just outside the window: unseen over w
            for (int i = 0; i < n; i++)
            {
                stream[i] = i > reach && random.nextDouble() < REPEAT_PROBABILITY ?
                    stream[i - 1 - random.nextInt(reach)] : random.nextLong(1L << ALPHABET_BITS);
                final boolean judged = filter.stream(stream[i]) == Verdict.DUPLICATE;
                final Integer previous = last.put(stream[i], i);
                if (i < 2 * window)
                {
                    continue; // the model is the steady state
                }
                final long phase = i % perSubfilter == 0 ? perSubfilter : i % perSubfilter;
                if (previous == null || i - previous > window)
                {
                    rates.unseen(judged, model.falsePositive(phase));
                }
                else
                {
                    rates.duplicate(judged, model.falseNegative(phase, i - previous));
                }
            }
        }
        report("queuing QHT L=" + subfilters + " c=" + perSubfilter + " (N=" + sub.rows() + " k=1 s=4 each)", rates);
        final QueuingPaperModel paper = new QueuingPaperModel(sub, subfilters, perSubfilter, Double.POSITIVE_INFINITY);
        System.out.printf("  uniform stream, steady state: FPR %.4f FNR %.4f; Theorems 7-8 as printed: FPR %.4f " +
            "FNR %.4f%n", model.falsePositiveRate(), model.falseNegativeRate(), paper.falsePositiveRate(),
            paper.falseNegativeRate());
        rates.check();
    }

    /**
     * k = 4: once the stream has passed Nk elements the rows are full, which is what Theorem 4.1 assumes, so the
     * FPR after that is held to the same tolerance as k = 1. Before it the model is off by 1–3 points (it counts
     * every row as full from the start; see the Table 1 figures QuotientReproductionTest measures), so the first Nk
     * elements get that gap, {@value #EARLY_MODEL_GAP}, on top of the binomial tolerance.
     */
    @Test
    void qhtWithFourBucketsMatchesTheorem41OnceRowsAreFull()
    {
        final long seed = TestSeed.seed();
        final long memory = 1 << 16;
        final QhtModel model = QhtModel.forMemory(memory, 4, 5); // N = 3276, S = 31
        final Rates early = new Rates();
        final Rates late = new Rates();
        final SplittableRandom random = new SplittableRandom(seed);
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).memoryBits(memory).buckets(4)
            .fingerprintBits(5).seed(random.nextLong()).create())
        {
            final int n = 200_000;
            final long cells = model.rows() * 4;
            for (int i = 0; i < n; i++)
            {
                final boolean judged = filter.stream(random.nextLong(1L << ALPHABET_BITS)) == Verdict.DUPLICATE;
                (i < cells ? early : late).unseen(judged, model.falsePositive(i));
            }
        }
        System.out.printf("QHT N=%d k=4 s=5: FPR in the first Nk elements measured %.4f predicted %.4f; " +
            "after: measured %.4f predicted %.4f%n", model.rows(), early.measuredFpr(), early.predictedFpr(),
            late.measuredFpr(), late.predictedFpr());
        Rates.assertWithin("FPR after Nk", late.measuredFpr(), late.predictedFpr(), late.unseen, 0);
        Rates.assertWithin("FPR in the first Nk", early.measuredFpr(), early.predictedFpr(), early.unseen,
            EARLY_MODEL_GAP);
    }

    private static void report(final String what, final Rates rates)
    {
        System.out.printf("%s: FPR measured %.4f predicted %.4f (%d unseen); FNR measured %.4f predicted " +
                "%.4f (%d duplicates)%n", what, rates.measuredFpr(), rates.predictedFpr(), rates.unseen,
            rates.measuredFnr(), rates.predictedFnr(), rates.duplicates);
    }

    /** Counts and predicted sums. */
    private static final class Rates
    {
        long unseen;
        long falsePositives;
        double expectedFalsePositives;
        long duplicates;
        long falseNegatives;
        double expectedFalseNegatives;

        void unseen(final boolean judgedDuplicate, final double predicted)
        {
            unseen++;
            falsePositives += judgedDuplicate ? 1 : 0;
            expectedFalsePositives += predicted;
        }

        void duplicate(final boolean judgedDuplicate, final double predicted)
        {
            duplicates++;
            falseNegatives += judgedDuplicate ? 0 : 1;
            expectedFalseNegatives += predicted;
        }

        double measuredFpr()
        {
            return (double)falsePositives / unseen;
        }

        double predictedFpr()
        {
            return expectedFalsePositives / unseen;
        }

        double measuredFnr()
        {
            return (double)falseNegatives / duplicates;
        }

        double predictedFnr()
        {
            return expectedFalseNegatives / duplicates;
        }

        void check()
        {
            assertWithin("FPR", measuredFpr(), predictedFpr(), unseen, 0);
            assertWithin("FNR", measuredFnr(), predictedFnr(), duplicates, 0);
        }

        static void assertWithin(final String what, final double measured, final double predicted,
            final long count, final double modelGap)
        {
            final double tolerance = SIGMAS * Math.sqrt(predicted * (1 - predicted) / count) +
                RELATIVE_SLACK * predicted + modelGap;
            assertTrue(count > 1000 && Math.abs(measured - predicted) <= tolerance, String.format(
                "%s measured %.4f, predicted %.4f, tolerance %.4f over %d elements", what, measured,
                predicted, tolerance, count));
        }
    }
}
