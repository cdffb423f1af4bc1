package io.ddf.engine;

import io.ddf.engine.internal.FilterCounters;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Single-writer mode ({@link FilterBuilder#singleWriter()}) changes how rows are written, never what: for every
 * kind and layout, the same stream gives the same verdicts element for element, the same counters, and the same
 * table bytes as shared mode. (The counter stripes themselves may be laid out differently; their sums must match.)
 */
class SingleWriterEquivalenceTest extends EngineTestBase
{
    private static final long CAPACITY = 2_000;
    private static final int ELEMENTS = 40_000;

    /** Unkeyed configurations: a keyed filter draws its secret key at creation, so two never hash alike. */
    static List<FilterConfigs.Config> configs()
    {
        return FilterConfigs.all().stream().filter(config -> !config.name().contains("keyed")).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void sameVerdictsCountersAndTableBytesAsSharedMode(final FilterConfigs.Config config)
    {
        final long seed = TestSeed.seed();
        try (DuplicateFilter shared = config.build(CAPACITY, null).seed(seed).create();
             DuplicateFilter owned = config.build(CAPACITY, null).seed(seed).singleWriter().create())
        {
            assertFalse(shared.singleWriter());
            assertTrue(owned.singleWriter());
            // A hot set (many duplicates) mixed with a wide draw (many evictions, window turnover), and a CONTAINS
            // in 16, which must change nothing in either mode.
            final SplittableRandom random = new SplittableRandom(seed);
            long unseen = 0;
            for (int i = 0; i < ELEMENTS; i++)
            {
                final long element = random.nextInt(4) == 0 ? random.nextLong(CAPACITY / 2) :
                    random.nextLong(CAPACITY * 50);
                if (random.nextInt(16) == 0)
                {
                    assertEquals(shared.contains(element), owned.contains(element), "contains at " + i);
                    continue;
                }
                final Verdict expected = shared.stream(element);
                assertEquals(expected, owned.stream(element), "verdict of element " + i + " (" + element + ")");
                unseen += expected == Verdict.UNSEEN ? 1 : 0;
            }
            assertTrue(unseen > 0 && unseen < ELEMENTS, "the stream has both verdicts");
            assertEquals(shared.elements(), owned.elements());
            assertEquals(shared.duplicates(), owned.duplicates());
            final FilterWords a = Filters.mutableWords(shared);
            final FilterWords b = Filters.mutableWords(owned);
            final long counterWords = FilterCounters.LENGTH / Long.BYTES;
            assertEquals(-1, a.mismatch(b, counterWords), "first word that differs after the counters");
        }
    }
}
