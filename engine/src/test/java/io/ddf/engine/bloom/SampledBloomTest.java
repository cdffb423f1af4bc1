package io.ddf.engine.bloom;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.persistence.MappedMemoryTestBase;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 003's filters: RSBF's three phases, and the load L (fraction of set bits per sub-filter) the
 * biased-sampling variants settle at on a stream of distinct elements (§5.1 derives the expected load). Only an
 * element judged distinct is inserted, so the bit it sets in a sub-filter was 0 with probability
 * g(L) = (1 − L) / (1 − L^k); the variants differ in what they reset: BSBF one random bit per sub-filter, so
 * L = g(L); RLBSBF a random bit with probability L, so L² = g(L); BSBFSD one random bit of one of the k
 * sub-filters, so L / k = g(L), whose only root is L = 1: BSBFSD fills up on such a stream (§4.2: "most of the
 * bits are set to 1 as the stream length increases"), clearing at most one bit per insertion.
 */
class SampledBloomTest extends MappedMemoryTestBase
{
    private static final long MEMORY_BITS = 1 << 16;
    private static final int K = 2;

    @Test
    void rsbfInsertsTheFirstSArrivalsThenWithProbabilitySOverTThenAllAfterThreshold()
    {
        final Random random = seededRandom();
        final CoreHarness h = CoreHarness.of(Filters.builder(FilterKind.RSBF).memoryBits(MEMORY_BITS)
            .param("hash-functions", K).param("reservoir-threshold", 0.1));
        final long s = MEMORY_BITS / K;
        final long[] first = random.longs(s).toArray();
        for (final long e : first)
        {
            h.core.stream(e);
        }
        for (final long e : first)
        {
            assertTrue(h.core.contains(e), "phase 1 resets nothing");
        }
        // Phase 2, t in (s, 4s]: an element judged distinct is inserted with probability s / t.
        long judgedDistinct = 0;
        long inserted = 0;
        double expected = 0;
        for (long t = s + 1; t <= 4 * s; t++)
        {
            final long e = random.nextLong();
            if (!h.core.stream(e))
            {
                judgedDistinct++;
                inserted += h.core.contains(e) ? 1 : 0;
                expected += (double)s / t;
            }
        }
        System.out.printf("RSBF phase 2: %d of %d distinct-judged elements inserted, expected %.0f%n", inserted,
            judgedDistinct, expected);
        assertEquals(expected / judgedDistinct, (double)inserted / judgedDistinct, 0.02);
        // Phase 3 from t = s / p* = 10 s: every element judged distinct is inserted.
        for (long t = 4 * s + 1; t <= 10 * s; t++)
        {
            h.core.stream(random.nextLong());
        }
        for (int i = 0; i < 10_000; i++)
        {
            final long e = random.nextLong();
            h.core.stream(e);
            assertTrue(h.core.contains(e), "phase 3 inserts every element judged distinct");
        }
    }

    @Test
    void bsbfLoadSettlesWhereOneResetPerSubFilterBalancesTheSets()
    {
        assertEquals(root(1), stableLoad(FilterKind.BSBF), 0.02);
    }

    @Test
    void rlbsbfLoadSettlesWhereLoadProportionalResetsBalanceTheSetsAndItsLoadWordsAreExact()
    {
        assertEquals(root(2), stableLoad(FilterKind.RLBSBF), 0.02);
    }

    @Test
    void bsbfsdClearsAtMostOneBitPerElementAndFillsUp()
    {
        final Random random = seededRandom();
        final long memory = 1 << 12;
        final CoreHarness h = CoreHarness.of(Filters.builder(FilterKind.BSBFSD).memoryBits(memory));
        long ones = 0;
        for (int i = 0; i < 40_000; i++)
        {
            h.core.stream(random.nextLong());
            final long now = Bits.count(h.region);
            assertTrue(now >= ones - 1, "more than one bit cleared at element " + i);
            ones = now;
        }
        System.out.printf("bsbfsd k=%d: load %.4f after %d distinct elements in %d bits%n", K, (double)ones / memory,
            40_000, memory);
        assertTrue(ones > 0.9 * memory, "load " + (double)ones / memory);
    }

    /**
     * @param power 1 for BSBF (L = g(L)), 2 for RLBSBF (L² = g(L)).
     * @return the root in (0, 1), by bisection.
     */
    private static double root(final int power)
    {
        double lo = 0;
        double hi = 1;
        for (int i = 0; i < 100; i++)
        {
            final double l = (lo + hi) / 2;
            final double g = (1 - l) / (1 - Math.pow(l, K));
            if (Math.pow(l, power) < g)
            {
                lo = l;
            }
            else
            {
                hi = l;
            }
        }
        return lo;
    }

    @Test
    void rlbsbfRecoverRecountsItsLoads()
    {
        final Random random = seededRandom();
        final CoreHarness h = CoreHarness.of(Filters.builder(FilterKind.RLBSBF).memoryBits(MEMORY_BITS));
        final RlbsbfCore core = (RlbsbfCore)h.core;
        for (int i = 0; i < 50_000; i++)
        {
            core.stream(random.nextLong());
        }
        h.region.putLongPlain(SubFilters.loadWord(1), 3); // as if killed between a flip and its load update
        core.recover();
        for (int i = 0; i < K; i++)
        {
            assertEquals(core.countedLoad(i), core.load(i));
        }
    }

    @Test
    void anElementJudgedDistinctIsHeldRightAfterwards()
    {
        final Random random = seededRandom();
        for (final FilterKind kind : new FilterKind[] {FilterKind.BSBF, FilterKind.BSBFSD, FilterKind.RLBSBF})
        {
            final CoreHarness h = CoreHarness.of(Filters.builder(kind).memoryBits(MEMORY_BITS));
            int held = 0;
            int judgedDistinct = 0;
            for (int i = 0; i < 100_000; i++)
            {
                final long e = random.nextLong();
                if (!h.core.stream(e))
                {
                    judgedDistinct++;
                    held += h.core.contains(e) ? 1 : 0;
                    assertTrue(h.core.stream(e), kind + ": a repeat right after an insertion is a DUPLICATE");
                }
            }
            assertTrue(judgedDistinct > 0, kind + " judged nothing distinct");
            assertEquals(judgedDistinct, held, kind + ": resets come before the sets, so the element is held");
        }
    }

    private static double stableLoad(final FilterKind kind)
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        final CoreHarness h = CoreHarness.of(Filters.builder(kind).memoryBits(MEMORY_BITS).param("hash-functions", K));
        final SubFilters layout = new SubFilters(MEMORY_BITS, K);
        final long s = layout.bitsPerFilter();
        for (long i = 0; i < 30 * s; i++)
        {
            h.core.stream(random.nextLong());
        }
        double load = 0;
        for (int i = 0; i < K; i++)
        {
            final long ones = Bits.count(layout.filterWords(h.region, i));
            if (h.core instanceof RlbsbfCore)
            {
                assertEquals(ones, ((RlbsbfCore)h.core).load(i), "load word of sub-filter " + i);
            }
            load += (double)ones / s / K;
        }
        System.out.printf("%s k=%d: load %.4f, predicted BSBF %.4f RLBSBF %.4f%n", kind.cliName(), K, load, root(1),
            root(2));
        return load;
    }
}
