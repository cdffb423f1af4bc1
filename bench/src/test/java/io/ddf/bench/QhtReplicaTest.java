package io.ddf.bench;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The floor {@link HotPathBench} reports is only a floor of QHT if it runs QHT: with ddf's derivation, the replica
 * gives ddf's verdicts element for element; with the one-hash derivation, it is still a QHT (duplicates found, at
 * about the same rate).
 */
class QhtReplicaTest
{
    private static final int ELEMENTS = 200_000;
    private static final long BITS = 1 << 20;

    @Test
    void ddfsDerivationGivesDdfsVerdicts()
    {
        final long seed = TestSeed.seed();
        final SplittableRandom random = new SplittableRandom(seed);
        final QhtReplica replica = new QhtReplica(BITS, 1, false);
        final QhtReplica oneHash = new QhtReplica(BITS, 1, true);
        int duplicates = 0;
        int oneHashDuplicates = 0;
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).memoryBits(BITS).buckets(4).fingerprintBits(16)
            .seed(1).create())
        {
            for (int i = 0; i < ELEMENTS; i++)
            {
                // half from a hot set: many duplicates, and full rows that evict
                final long element = random.nextBoolean() ? random.nextLong(40_000) : random.nextLong();
                final boolean expected = filter.stream(element) == Verdict.DUPLICATE;
                assertEquals(expected, replica.stream(element), "element " + i + "; " + TestSeed.replayHint());
                duplicates += expected ? 1 : 0;
                oneHashDuplicates += oneHash.stream(element) ? 1 : 0;
            }
        }
        assertTrue(duplicates > ELEMENTS / 10, "the stream has duplicates: " + duplicates);
        assertEquals(duplicates, oneHashDuplicates, duplicates * 0.02, "one-hash QHT finds about as many");
    }
}
