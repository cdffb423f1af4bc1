package io.ddf.ingest.session;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Operation;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A {@link VerdictRing} of a chosen capacity (the raw feed's, 16 batches): it asks its owner to consume verdicts only
 * once the capacity would be exceeded, not at every {@link VerdictRing#RING} (so the feed writes the verdicts of a
 * whole read at once), and its verdicts stay the sequential algorithm's, in order, across the ring's wrap.
 */
class VerdictRingCapacityTest
{
    private static final int BATCH = VerdictRouter.MAX_BATCH;

    /** Consumes every available verdict when asked, counting the requests and checking each verdict in order. */
    private static final class Owner implements VerdictRing.Owner
    {
        final List<Boolean> expected = new ArrayList<>();
        VerdictRing ring;
        int asked;
        int consumed;

        @Override
        public void onVerdicts()
        {
            asked++;
            final int available = ring.available();
            for (int i = 0; i < available; i++)
            {
                assertEquals(expected.get(consumed), ring.next(), "verdict " + consumed + " (seed " + SEED + ")");
                consumed++;
            }
        }
    }

    private static final long SEED = TestSeed.seed();

    /** A Bloom filter that answers these few hundred thousand distinct hashes exactly (odds of a miss ~10^-9). */
    private static DuplicateFilter exactBloom()
    {
        return Filters.builder(FilterKind.BLOOM).memoryBits(1L << 28).param("hash-functions", 10).seed(SEED).create();
    }

    @Test
    void aCapacityIsAPowerOfTwoOfAtLeastTheDefault()
    {
        final Owner owner = new Owner();
        for (final int bad : new int[] {VerdictRing.RING / 2, VerdictRing.RING + 1, 3 * VerdictRing.RING, 0, -4096})
        {
            assertThrows(IllegalArgumentException.class, () -> new VerdictRing(null, 64, true, owner, bad),
                "capacity " + bad);
        }
    }

    @Test
    void theOwnerIsAskedOnlyWhenTheCapacityWouldBeExceeded()
    {
        assertEquals(1, asksFor(VerdictRing.RING, 2), "the default ring: the second batch waits for the first's");
        assertEquals(0, asksFor(16 * BATCH, 16), "sixteen batches fit a ring of sixteen");
        assertEquals(1, asksFor(16 * BATCH, 17), "the seventeenth waits");
    }

    /** @return how often publishing {@code batches} full batches (none consumed meanwhile) asked the owner. */
    private static int asksFor(final int capacity, final int batches)
    {
        final Owner owner = new Owner();
        final VerdictRing ring = new VerdictRing(null, 64, true, owner, capacity);
        owner.ring = ring;
        final Random random = new Random(SEED);
        final long[] hashes = new long[BATCH];
        try (DuplicateFilter filter = exactBloom())
        {
            for (int b = 0; b < batches; b++)
            {
                for (int i = 0; i < BATCH; i++)
                {
                    hashes[i] = random.nextLong();
                    owner.expected.add(false);
                }
                ring.reserve(BATCH);
                ring.submitHashes(filter, Operation.STREAM, hashes, BATCH);
            }
        }
        return owner.asked;
    }

    @Test
    void verdictsAreTheSequentialAlgorithmsInOrderAcrossTheWrap()
    {
        final int capacity = 16 * BATCH;
        final Owner owner = new Owner();
        final VerdictRing ring = new VerdictRing(null, 64, true, owner, capacity);
        owner.ring = ring;
        final Random random = new Random(SEED);
        final Set<Long> seen = new HashSet<>();
        final long[] hashes = new long[BATCH];
        try (DuplicateFilter filter = exactBloom())
        {
            int submitted = 0;
            while (submitted < 3 * capacity + BATCH / 2)
            {
                final int count = 1 + random.nextInt(BATCH);
                for (int i = 0; i < count; i++)
                {
                    // about one in four repeats an element seen before: both verdicts, in a known order
                    final long index = random.nextInt(4) == 0 && submitted > 0 ? random.nextInt(submitted) :
                        submitted + i;
                    hashes[i] = index * 0x9E37_79B9_7F4A_7C15L;
                    owner.expected.add(!seen.add(hashes[i]));
                }
                ring.reserve(count);
                ring.submitHashes(filter, Operation.STREAM, hashes, count);
                submitted += count;
            }
            owner.onVerdicts();
            assertEquals(submitted, owner.consumed, "every verdict consumed (seed " + SEED + ")");
        }
    }
}
