package io.ddf.engine.cuckoo;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The narrow core's division of a bucket index by the buckets per word, as a multiplication, is exact. */
class CuckooWordDivisionTest
{
    /** Bucket indexes stay below 2^43 (1 TiB of 1-bit buckets); the bound proven is 2^58 for divisors up to 64. */
    private static final long LIMIT = 1L << 58;

    @Test
    void divisionByReciprocalIsExactForEveryDivisorAndBucketRange()
    {
        final long seed = TestSeed.seed();
        final SplittableRandom random = new SplittableRandom(seed);
        for (int d = 3; d <= 64; d++)
        {
            if (Integer.bitCount(d) == 1)
            {
                continue; // powers of two shift instead
            }
            final long reciprocal = NarrowCuckooCore.reciprocal(d);
            for (long n = 0; n < 100_000; n++)
            {
                assertEquals(n / d, NarrowCuckooCore.divide(n, reciprocal), "d=" + d + " n=" + n);
            }
            // Around multiples of d near the edges of 32, 43 and 58 bits, where rounding errors would show first.
            for (final long edge : new long[] {1L << 32, 1L << 43, LIMIT})
            {
                final long base = edge / d * d;
                for (long n = base - 3L * d; n < Math.min(base + 3L * d, LIMIT); n++)
                {
                    assertEquals(n / d, NarrowCuckooCore.divide(n, reciprocal), "d=" + d + " n=" + n);
                }
            }
            for (int i = 0; i < 100_000; i++)
            {
                final long n = random.nextLong(LIMIT);
                assertEquals(n / d, NarrowCuckooCore.divide(n, reciprocal), "d=" + d + " n=" + n + " seed=" + seed);
            }
        }
    }
}
