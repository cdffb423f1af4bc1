package io.ddf.engine.tune;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.persistence.MappedMemoryTestBase;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The capacity promise measured: each kind {@link CapacitySizing} sizes, built for a capacity of 20,000 at error
 * rates 1 % and 0.1 %, is filled with 20,000 distinct random items and probed with 200,000 never added. Forgotten
 * items at most {@value CapacitySizing#MAX_FORGOTTEN} of them plus {@value #FORGOTTEN_SLACK} (binomial noise of a
 * 0.1 % rate over 20,000: 0.02 %), FPR at most the error rate plus three standard deviations of 200,000 probes.
 * Fixed seed (TestSeed; {@code -Dddf.test.seed} overrides).
 */
class CapacitySizingTest extends MappedMemoryTestBase
{
    private static final int CAPACITY = 20_000;
    private static final int PROBES = 200_000;
    private static final double FORGOTTEN_SLACK = 0.0007;

    @Test
    void eachSizedKindKeepsItsPromiseMeasured()
    {
        for (final double error : new double[] {0.01, 0.001})
        {
            for (final FilterKind kind : new FilterKind[] {FilterKind.FIFO_BLOOM, FilterKind.BLOOM, FilterKind.QHT})
            {
                measure(CapacitySizing.forCapacity(CAPACITY, error, kind), error);
            }
        }
    }

    private static void measure(final Candidate c, final double error)
    {
        final SplittableRandom random = TestSeed.splittable();
        final long[] added = new long[CAPACITY];
        long forgotten = 0;
        long falsePositives = 0;
        try (DuplicateFilter filter = c.builder().seed(random.nextLong()).create())
        {
            for (int i = 0; i < CAPACITY; i++)
            {
                added[i] = random.nextLong() | 1; // odd: probes are even, so never added
                filter.stream(added[i]);
            }
            for (final long item : added)
            {
                forgotten += filter.contains(item) ? 0 : 1;
            }
            for (int i = 0; i < PROBES; i++)
            {
                falsePositives += filter.contains(random.nextLong() & ~1L) ? 1 : 0;
            }
        }
        final double fnr = (double)forgotten / CAPACITY;
        final double fpr = (double)falsePositives / PROBES;
        final String line = String.format(Locale.ROOT, "%s for %d at %s: forgotten %.4f %%, FPR %.4f %% (seed %d, " +
            "replay with %s)", c.label(), CAPACITY, error, 100 * fnr, 100 * fpr, TestSeed.seed(),
            TestSeed.replayHint());
        System.out.println(line);
        assertTrue(fnr <= CapacitySizing.MAX_FORGOTTEN + FORGOTTEN_SLACK, line);
        assertTrue(fpr <= error + 3 * Math.sqrt(error / PROBES), line);
    }
}
