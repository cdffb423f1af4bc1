package io.ddf.engine.tune;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** BF.RESERVE's sizing rule for qhtd and qqhtd ({@link QuotientSizing}): FPR bound, free bits used, rows for the
 * capacity. */
class QuotientSizingTest
{
    @Test
    void fingerprintBitsMeetTheErrorRate()
    {
        for (final double e : new double[] {0.5, 0.2, 0.1, 0.05, 0.01, 0.001, 1e-4, 1e-6, 1e-8})
        {
            final int s = QuotientSizing.fingerprintBits(e);
            assertTrue(QuotientSizing.fpr(s) <= e, e + " -> s=" + s);
            final int minimal = (int)Math.ceil(Math.log(QuotientSizing.BUCKETS / e + 1) / Math.log(2));
            assertTrue(s >= minimal, e + " -> s=" + s);
            // raised only while the row packs as many rows per 64-bit word
            if (QuotientSizing.BUCKETS * minimal <= 64)
            {
                assertEquals(64 / (QuotientSizing.BUCKETS * minimal), 64 / (QuotientSizing.BUCKETS * s), e + " -> s=" + s);
            }
            else
            {
                assertEquals(minimal, s);
            }
        }
        assertEquals(16, QuotientSizing.fingerprintBits(0.01));
        assertEquals(5, QuotientSizing.fingerprintBits(0.2));
        assertThrows(IllegalArgumentException.class, () -> QuotientSizing.fingerprintBits(0));
        assertThrows(IllegalArgumentException.class, () -> QuotientSizing.fingerprintBits(1));
        assertThrows(IllegalArgumentException.class, () -> QuotientSizing.fingerprintBits(1e-12));
        assertThrows(IllegalArgumentException.class, () -> QuotientSizing.rows(0));
    }

    @Test
    void rowsHoldTheCapacityWithLittleEviction()
    {
        final long capacity = 20_000;
        final FilterParameters p = QuotientSizing.apply(Filters.builder(FilterKind.QHT), capacity, 0.001).parameters();
        assertEquals("qht", p.toMap().get("kind"));
        assertTrue(p.get("rows") * p.get("buckets") >= 2 * capacity);
        assertEquals(capacity, QuotientSizing.capacityOf(p.get("rows"), p.get("buckets")));
        try (DuplicateFilter filter = QuotientSizing.apply(Filters.builder(FilterKind.QHT), capacity, 0.001).seed(1).create())
        {
            for (long i = 0; i < capacity; i++)
            {
                filter.stream(i);
            }
            long forgotten = 0;
            for (long i = 0; i < capacity; i++)
            {
                if (!filter.contains(i))
                {
                    forgotten++;
                }
            }
            // with two cells per element, few rows overflow: under 5% evicted
            assertTrue(forgotten < capacity / 20, forgotten + " of " + capacity + " forgotten");
            long falsePositives = 0;
            final long probes = 200_000;
            for (long i = 0; i < probes; i++)
            {
                if (filter.stream(capacity * 10 + i) == Verdict.DUPLICATE)
                {
                    falsePositives++;
                }
            }
            assertTrue(falsePositives < probes * 0.001 * 3, falsePositives + " false positives");
        }
    }
}
