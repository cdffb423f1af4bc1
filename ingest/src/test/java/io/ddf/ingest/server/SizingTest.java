package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.Verdict;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** BF.RESERVE's sizing rule (engine {@link Sizing}): FPR bound, free bits used, rows for the capacity. */
class SizingTest
{
    @Test
    void fingerprintBitsMeetTheErrorRate()
    {
        for (final double e : new double[] {0.5, 0.2, 0.1, 0.05, 0.01, 0.001, 1e-4, 1e-6, 1e-8})
        {
            final int s = Sizing.fingerprintBits(e);
            assertTrue(Sizing.fpr(s) <= e, e + " -> s=" + s);
            final int minimal = (int)Math.ceil(Math.log(Sizing.BUCKETS / e + 1) / Math.log(2));
            assertTrue(s >= minimal, e + " -> s=" + s);
            // raised only while the row packs as many rows per 64-bit word
            if (Sizing.BUCKETS * minimal <= 64)
            {
                assertEquals(64 / (Sizing.BUCKETS * minimal), 64 / (Sizing.BUCKETS * s), e + " -> s=" + s);
            }
            else
            {
                assertEquals(minimal, s);
            }
        }
        assertEquals(16, Sizing.fingerprintBits(0.01));
        assertEquals(5, Sizing.fingerprintBits(0.2));
        assertThrows(IllegalArgumentException.class, () -> Sizing.fingerprintBits(0));
        assertThrows(IllegalArgumentException.class, () -> Sizing.fingerprintBits(1));
        assertThrows(IllegalArgumentException.class, () -> Sizing.fingerprintBits(1e-12));
        assertThrows(IllegalArgumentException.class, () -> Sizing.rows(0));
    }

    @Test
    void rowsHoldTheCapacityWithLittleEviction()
    {
        final long capacity = 20_000;
        final FilterParameters p = Sizing.qhtFor(capacity, 0.001).parameters();
        assertEquals("qht", p.toMap().get("kind"));
        assertTrue(p.get("rows") * p.get("buckets") >= 2 * capacity);
        assertEquals(capacity, Sizing.capacityOf(p.get("rows"), p.get("buckets")));
        try (DuplicateFilter filter = Sizing.qhtFor(capacity, 0.001).seed(1).create())
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
