package io.ddf.engine.model;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.engine.tune.Predictions;
import io.ddf.persistence.MappedMemoryTestBase;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BF.INFO's predictions (fill, predicted-fpr, predicted-fnr, via {@link Predictions#atCurrentLoad}) beside a
 * measurement of the same filter at 1×, 2× and 3× its capacity of distinct items (issues 12/15): the FPR over
 * {@value #PROBES} never-added probes, the FNR over the items the filter judged new. The load the predictions see is
 * the items judged new, fewer than those offered once false positives block some: Bloom's formula in that count
 * understated the FPR past capacity (bloom of 9.6 bits per item at 3×: 0.33 predicted, 0.44 measured). The fill is
 * printed, not measured: no API shows a Bloom table's bits set (fifo-bloom's fill is items held, a count).
 *
 * <p>Tolerance: {@value #RELATIVE} of the prediction plus {@value #SIGMAS} binomial standard deviations of the
 * measurement (the filter's own variance at these sizes is below that), plus a stated slack where the model leaves
 * an effect out. Seed: {@link TestSeed}.
 */
class PastCapacityPredictionTest extends MappedMemoryTestBase
{
    private static final int CAPACITY = 10_000;
    private static final int PROBES = 200_000;
    private static final double RELATIVE = 0.05;
    private static final double SIGMAS = 4;
    /** Extra FPR and FNR allowed for fifo-bloom with K = 2 over 4 generations (see its use). */
    private static final double DENSE_K2 = 0.04;

    @Test
    void bloomSizedForCapacity()
    {
        // RedisBloom's sizing for 10^4 items at 1 %: 9.59 bits per item, K = 7
        check(Filters.builder(FilterKind.BLOOM).memoryBits(95_851).param("hash-functions", 7L), 0);
    }

    @Test
    void denseBloom()
    {
        check(Filters.builder(FilterKind.BLOOM).memoryBits(40_000).param("hash-functions", 3L), 0);
    }

    @Test
    void fifoBloomSizedForCapacity()
    {
        check(Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", (long)CAPACITY).param("target-fpr", 0.01), 0);
    }

    @Test
    void denseFifoBloom()
    {
        // 4 bits per capacity item: the regime where the inserted-count formula missed most
        check(Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", (long)CAPACITY).memoryBits(40_000)
            .param("hash-functions", 3L), 0);
        // K = 2 over 4 generations: the generations share bit positions and a generation's items are those its
        // elders did not match, which the model (independent generations) leaves out: a forgotten item is matched by
        // the held ones less often than a never-added probe, and the probes' FPR is higher (seeds default, 1, 2, 3:
        // FPR 2.0-2.4 points above the model at 1x, FNR 3.0-4.1 above it at 2x, 1.4-1.7 at 3x)
        check(Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", (long)CAPACITY).param("generations", 4L)
            .memoryBits(40_000).param("hash-functions", 2L), DENSE_K2);
    }

    /**
     * @param builder the filter.
     * @param slack   FPR and FNR allowed beyond the tolerance, for an effect the model leaves out (named where it
     *                is used).
     */
    private static void check(final FilterBuilder builder, final double slack)
    {
        final SplittableRandom random = TestSeed.splittable();
        final List<String> misses = new ArrayList<>();
        final StringBuilder log = new StringBuilder();
        try (DuplicateFilter filter = builder.seed(random.nextLong()).create())
        {
            final long[] judgedNew = new long[3 * CAPACITY];
            int inserted = 0;
            for (int multiple = 1; multiple <= 3; multiple++)
            {
                for (int i = 0; i < CAPACITY; i++)
                {
                    final long item = random.nextLong();
                    if (filter.stream(item) == Verdict.UNSEEN)
                    {
                        judgedNew[inserted++] = item;
                    }
                }
                final LoadPrediction predicted = Predictions.atCurrentLoad(filter).orElseThrow();
                long absent = 0;
                for (int i = 0; i < inserted; i++)
                {
                    absent += filter.contains(judgedNew[i]) ? 0 : 1;
                }
                long falsePositives = 0;
                for (int p = 0; p < PROBES; p++)
                {
                    falsePositives += filter.contains(random.nextLong()) ? 1 : 0;
                }
                final double fpr = (double)falsePositives / PROBES;
                final double fnr = (double)absent / inserted;
                final String line = String.format(Locale.ROOT, "%s %dx: fpr %.4f predicted %.4f, fnr %.4f predicted " +
                    "%.4f (fill %.4f, N %d)", filter.parameters(), multiple, fpr, predicted.fpr(), fnr,
                    predicted.fnr(), predicted.fill(), inserted);
                log.append(line).append('\n');
                if (!within(predicted.fpr(), fpr, PROBES, slack) || !within(predicted.fnr(), fnr, inserted, slack))
                {
                    misses.add(line);
                }
            }
        }
        System.out.print(log);
        assertTrue(misses.isEmpty(), "outside " + RELATIVE + " relative + " + SIGMAS + " sigma: " + misses);
    }

    private static boolean within(final double predicted, final double measured, final long trials,
        final double slack)
    {
        final double sigma = Math.sqrt(Math.max(predicted * (1 - predicted), 1.0 / trials) / trials);
        return Math.abs(measured - predicted) <= RELATIVE * predicted + SIGMAS * sigma + slack;
    }
}
