package io.ddf.engine.quotient;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.engine.hash.Mix;
import io.ddf.persistence.MappedMemoryTestBase;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dynamic SQF's properties (seed 004 §5.1), on the public API and inside its region. */
class DynamicSqfTest extends MappedMemoryTestBase
{
    /** A core over direct memory, with package access to its structure. */
    private static final class Fixture implements AutoCloseable
    {
        final DirectRegion region;
        final DynamicSqfCore core;
        final DsqfCensus links;

        Fixture(final long rows, final int k, final int r, final int reduced)
        {
            final long[] slots = {rows, k, r, reduced, 0, rows * k};
            final DynamicSqfDefinition definition = new DynamicSqfDefinition();
            definition.check(slots);
            this.region = new DirectRegion(definition.tableBytes(slots));
            this.core = (DynamicSqfCore)definition.core(slots, region.words(), null);
            this.links = new DsqfCensus(slots, region.words());
        }

        /** @return the census, checked to sum to the pool. */
        long[] census()
        {
            final long[] census = links.census();
            assertEquals(core.pool(), census[0] + census[1] + census[2], "used + free list + never allocated");
            return census;
        }

        @Override
        public void close()
        {
            region.close();
        }
    }

    /**
     * Pool of 8 buckets over 4 rows, 30-bit signatures (no false positive among a handful of elements). Two
     * elements per row fill the pool; then each new element takes a bucket from the least recently accessed
     * non-empty row, where a DUPLICATE access refreshes a row as much as an insertion does.
     */
    @Test
    void hardCollisionsEvictFromTheLeastRecentlyAccessedRow()
    {
        try (Fixture fixture = new Fixture(4, 2, 32, 24))
        {
            final long[][] byRow = elementsByRow(fixture.core, 4, 4, 12345);
            final long a1 = byRow[0][0];
            final long a2 = byRow[0][1];
            final long b1 = byRow[1][0];
            final long b2 = byRow[1][1];
            final long c1 = byRow[2][0];
            final long c2 = byRow[2][1];
            final long d1 = byRow[3][0];
            final long d2 = byRow[3][1];
            for (final long e : new long[] {a1, a2, b1, b2, c1, c2, d1, d2})
            {
                assertFalse(fixture.core.stream(e));
            }
            assertEquals(0, fixture.core.evictions());
            assertEquals(0, fixture.census()[2], "pool full");
            // Recency now (oldest first): rows 0, 1, 2, 3. A duplicate of a1 makes row 0 the newest: 1, 2, 3, 0.
            assertTrue(fixture.core.stream(a1));
            // A new element of row 2 refreshes row 2 (1, 3, 0, 2), then evicts one of row 1's buckets.
            final long c3 = byRow[2][2];
            assertFalse(fixture.core.stream(c3));
            assertEquals(1, fixture.core.evictions());
            assertEquals(1, count(fixture.core, b1, b2), "exactly one of row 1's signatures left");
            assertHeld(fixture.core, a1, a2, c1, c2, c3, d1, d2);
            // contains is no access: row 1 stays the oldest. A new element of row 3 (1, 0, 2, 3) evicts row 1's last.
            assertTrue(fixture.core.contains(a2));
            final long d3 = byRow[3][2];
            assertFalse(fixture.core.stream(d3));
            assertEquals(0, count(fixture.core, b1, b2), "row 1 emptied");
            assertHeld(fixture.core, a1, a2, c1, c2, c3, d1, d2, d3);
            // Row 1, now empty, has left the recency list: its new element takes from row 0, the oldest (0, 2, 3, 1).
            final long b3 = byRow[1][2];
            assertFalse(fixture.core.stream(b3));
            assertEquals(1, count(fixture.core, a1, a2), "one of row 0's signatures evicted");
            assertHeld(fixture.core, b3, c1, c2, c3, d1, d2, d3);
            // Losing a bucket is no access: row 0 stays the oldest and gives its last bucket to the next new element.
            final long b4 = byRow[1][3];
            assertFalse(fixture.core.stream(b4));
            assertEquals(0, count(fixture.core, a1, a2), "row 0 emptied");
            assertHeld(fixture.core, b3, b4, c1, c2, c3, d1, d2, d3);
            // Now row 2 is the oldest (2, 3, 1): a new element of row 3 takes one of its buckets.
            final long d4 = byRow[3][3];
            assertFalse(fixture.core.stream(d4));
            assertEquals(2, count(fixture.core, c1, c2, c3), "one of row 2's signatures evicted");
            assertHeld(fixture.core, b3, b4, d1, d2, d3, d4);
            assertEquals(5, fixture.core.evictions());
            fixture.census();
        }
    }

    @Test
    void poolFreeAndUsedBucketsAlwaysSumToThePool()
    {
        final long seed = TestSeed.seed();
        final SplittableRandom random = new SplittableRandom(seed);
        try (Fixture fixture = new Fixture(64, 3, 16, 8))
        {
            for (int i = 0; i < 30_000; i++)
            {
                fixture.core.stream(Mix.mix64(random.nextLong(3_000)));
                if (i % 1_000 == 0)
                {
                    fixture.census();
                }
            }
            final long[] census = fixture.census();
            assertEquals(fixture.core.pool(), census[0], "an overfull pool is all in use");
            assertTrue(fixture.core.evictions() > 0);
        }
    }

    @Test
    void recoveryAfterACrashMidUpdateReturnsTheLostBucketAndRelinksTheRows()
    {
        final long seed = TestSeed.seed();
        final SplittableRandom random = new SplittableRandom(seed);
        try (Fixture fixture = new Fixture(32, 2, 16, 8))
        {
            final long first = Mix.mix64(random.nextLong());
            fixture.core.stream(first);
            for (int i = 0; i < 40; i++)
            {
                fixture.core.stream(Mix.mix64(random.nextLong()));
            }
            fixture.links.simulateCrashUnlinking(fixture.core.rowOf(first));
            assertThrows(IllegalStateException.class, fixture.links::census);
            fixture.core.recover();
            final long[] census = fixture.census();
            assertEquals(1, census[1], "the unlinked bucket is on the free list");
            for (int i = 0; i < 2_000; i++)
            {
                fixture.core.stream(Mix.mix64(random.nextLong()));
            }
            assertEquals(0, fixture.census()[1], "the free list is used first");
        }
    }

    @Test
    void noFalseNegativeBelowCapacity()
    {
        final long seed = TestSeed.seed();
        // A pool of 2^16 buckets and 2^15 distinct elements: no hard collision, so every repeat is found.
        final long[] elements = new SplittableRandom(seed).longs(1 << 15).distinct().toArray();
        try (DuplicateFilter filter = Filters.builder(FilterKind.DSQF).rows(1 << 14).buckets(4).create())
        {
            for (final long e : elements)
            {
                filter.stream(e);
            }
            for (final long e : elements)
            {
                assertEquals(Verdict.DUPLICATE, filter.stream(e), "seed=" + seed);
            }
        }
        try (Fixture fixture = new Fixture(1 << 12, 4, 16, 8))
        {
            final SplittableRandom random = new SplittableRandom(seed);
            final long[] hashes = new long[1 << 14];
            for (int i = 0; i < hashes.length; i++)
            {
                hashes[i] = random.nextLong();
                fixture.core.stream(hashes[i]);
            }
            for (final long h : hashes)
            {
                assertTrue(fixture.core.stream(h), "seed=" + seed);
            }
            assertEquals(0, fixture.core.evictions());
            fixture.census();
        }
    }

    @Test
    void defaultsWorkAndImpossibleParametersAreRefused()
    {
        try (DuplicateFilter filter = Filters.builder(FilterKind.DSQF).create())
        {
            assertEquals(Verdict.UNSEEN, filter.stream("x"));
            assertEquals(Verdict.DUPLICATE, filter.stream("x"));
            final long rows = filter.parameters().get("rows");
            assertEquals(4 * rows, filter.parameters().get("pool"));
            // Payload within M; beyond it only a state line, two spare words per array and cache-line rounding.
            assertTrue(filter.parameters().tableBytes() * 8 <= (1L << 26) + 512 + 4 * 64 + 511,
                "the table fits the memory asked for: " + filter.parameters().tableBytes());
            assertTrue(filter.parameters().tableBytes() * 8 > (1L << 26) * 0.95, "and uses most of it");
        }
        // SQF's recommended r = 2, r' = 1, k = 4: 3 distinct non-empty signatures.
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.DSQF).remainderBits(2).reducedBits(1).parameters());
        assertTrue(e.getMessage().contains("signatures"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.DSQF).rows(100).memoryBits(1 << 20).parameters());
    }

    /** Finds, for each of the first {@code rowsWanted} rows, {@code perRow} elements (hashes) falling in it. */
    private static long[][] elementsByRow(final DynamicSqfCore core, final int rowsWanted, final int perRow,
        final long seed)
    {
        final List<List<Long>> found = new ArrayList<>();
        for (int r = 0; r < rowsWanted; r++)
        {
            found.add(new ArrayList<>());
        }
        final SplittableRandom random = new SplittableRandom(seed);
        int missing = rowsWanted * perRow;
        while (missing > 0)
        {
            final long hash = random.nextLong();
            final int row = (int)core.rowOf(hash);
            if (row < rowsWanted && found.get(row).size() < perRow)
            {
                found.get(row).add(hash);
                missing--;
            }
        }
        final long[][] byRow = new long[rowsWanted][perRow];
        for (int r = 0; r < rowsWanted; r++)
        {
            for (int i = 0; i < perRow; i++)
            {
                byRow[r][i] = found.get(r).get(i);
            }
        }
        return byRow;
    }

    private static int count(final DynamicSqfCore core, final long... hashes)
    {
        int held = 0;
        for (final long h : hashes)
        {
            held += core.contains(h) ? 1 : 0;
        }
        return held;
    }

    private static void assertHeld(final DynamicSqfCore core, final long... hashes)
    {
        for (final long h : hashes)
        {
            assertTrue(core.contains(h), "hash " + h + " should still be held");
        }
    }
}
