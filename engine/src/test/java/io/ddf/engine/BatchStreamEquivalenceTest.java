package io.ddf.engine;

import io.ddf.engine.internal.FilterCounters;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DuplicateFilter#stream(long[], int, int, boolean[])} is the calls of {@link DuplicateFilter#stream(long)}
 * one by one: for every kind and layout, in both modes, batches of random lengths (0 to 100, so groups are split
 * and partial) give the same verdicts, counters and table bytes as the single calls. A large QHT is added so that
 * the batch also takes its touch-ahead path (tables above 1 MiB).
 */
class BatchStreamEquivalenceTest extends EngineTestBase
{
    private static final long CAPACITY = 2_000;
    private static final int ELEMENTS = 40_000;

    record Case(String name, FilterBuilder... pair)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    static List<Case> cases()
    {
        final long seed = TestSeed.seed();
        final List<Case> cases = new ArrayList<>();
        for (final FilterConfigs.Config config : FilterConfigs.all())
        {
            if (config.name().contains("keyed"))
            {
                continue; // a keyed filter draws its key at creation: two never hash alike
            }
            cases.add(new Case(config.name(), config.build(CAPACITY, null).seed(seed),
                config.build(CAPACITY, null).seed(seed)));
            cases.add(new Case(config.name() + ", single-writer", config.build(CAPACITY, null).seed(seed)
                .singleWriter(), config.build(CAPACITY, null).seed(seed).singleWriter()));
        }
        for (final boolean singleWriter : new boolean[] {false, true})
        {
            final FilterBuilder[] pair = new FilterBuilder[2];
            for (int i = 0; i < 2; i++)
            {
                pair[i] = Filters.builder(FilterKind.QHT).memoryBits(1L << 24).buckets(4).fingerprintBits(16)
                    .seed(seed);
                if (singleWriter)
                {
                    pair[i] = pair[i].singleWriter();
                }
            }
            cases.add(new Case("qht 16 Mbit (touch ahead)" + (singleWriter ? ", single-writer" : ""), pair));
        }
        return cases;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void sameVerdictsCountersAndTableBytesAsOneByOne(final Case testCase)
    {
        final long seed = TestSeed.seed();
        try (DuplicateFilter single = testCase.pair[0].create(); DuplicateFilter batched = testCase.pair[1].create())
        {
            final SplittableRandom random = new SplittableRandom(seed);
            final long[] elements = new long[ELEMENTS + 8];
            for (int i = 0; i < elements.length; i++)
            {
                // a hot set (duplicates) mixed with a wide draw (evictions, window turnover)
                elements[i] = random.nextInt(4) == 0 ? random.nextLong(CAPACITY / 2) : random.nextLong(CAPACITY * 50);
            }
            final boolean[] expected = new boolean[elements.length];
            final boolean[] actual = new boolean[elements.length];
            int expectedDuplicates = 0;
            int reportedDuplicates = 0;
            for (int from = 4; from < ELEMENTS;)
            {
                final int length = Math.min(ELEMENTS - from, random.nextInt(101));
                for (int i = from; i < from + length; i++)
                {
                    expected[i] = single.stream(elements[i]) == Verdict.DUPLICATE;
                    expectedDuplicates += expected[i] ? 1 : 0;
                }
                reportedDuplicates += batched.stream(elements, from, length, actual);
                from += length;
            }
            final String context = testCase + "; " + TestSeed.replayHint();
            assertArrayEquals(expected, actual, context);
            assertTrue(expectedDuplicates > 0 && expectedDuplicates < ELEMENTS - 4, "both verdicts: " + context);
            assertEquals(expectedDuplicates, reportedDuplicates, context);
            assertEquals(single.elements(), batched.elements(), context);
            assertEquals(single.duplicates(), batched.duplicates(), context);
            final long counterWords = FilterCounters.LENGTH / Long.BYTES;
            assertEquals(-1, Filters.mutableWords(single).mismatch(Filters.mutableWords(batched), counterWords),
                "first word that differs after the counters: " + context);
        }
    }

    @Test
    void aRangeOutsideEitherArrayIsRefusedBeforeAnythingIsStreamed()
    {
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).memoryBits(1 << 16).create())
        {
            final long[] elements = new long[10];
            assertThrows(IndexOutOfBoundsException.class, () -> filter.stream(elements, 5, 6, new boolean[20]));
            assertThrows(IndexOutOfBoundsException.class, () -> filter.stream(elements, 0, 10, new boolean[9]));
            assertThrows(IndexOutOfBoundsException.class, () -> filter.stream(elements, -1, 2, new boolean[10]));
            assertEquals(0, filter.elements());
            assertEquals(0, filter.stream(elements, 3, 0, new boolean[10]));
            assertEquals(0, filter.elements());
        }
    }
}
