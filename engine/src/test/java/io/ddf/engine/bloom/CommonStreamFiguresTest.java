package io.ddf.engine.bloom;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.MappedMemoryTestBase;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every kind of the family on one stream: 2^20 elements drawn uniformly from 2^18, 2^20 bits of memory, each
 * kind's defaults otherwise (A2 and b_DBF with their default window 2^16). Prints FPR and FNR against the
 * unbounded ground truth (DDP) and, for the windowed kinds, against the window's (wDDP).
 */
class CommonStreamFiguresTest extends MappedMemoryTestBase
{
    private static final int STREAM = 1 << 20;
    private static final int ALPHABET = 1 << 18;
    private static final long MEMORY_BITS = 1 << 20;
    private static final long WINDOW = 1 << 16;

    @Test
    void figuresOnTheCommonStream()
    {
        final long seed = TestSeed.seed();
        final int[] stream = new SplittableRandom(seed).ints(STREAM, 0, ALPHABET).toArray();
        System.out.println("| kind | parameters | DDP FPR % | DDP FNR % | wDDP FPR % | wDDP FNR % |");
        for (final FilterKind kind : new FilterKind[] {FilterKind.BLOOM, FilterKind.SBF, FilterKind.RSBF,
            FilterKind.BSBF, FilterKind.BSBFSD, FilterKind.RLBSBF, FilterKind.A2, FilterKind.BDBF})
        {
            final FilterBuilder builder = Filters.builder(kind).memoryBits(MEMORY_BITS).seed(seed);
            final double[] rates = measure(builder, stream);
            final boolean windowed = kind == FilterKind.A2 || kind == FilterKind.BDBF;
            System.out.printf("| %s | %s | %.3f | %.3f | %s | %s |%n", kind.cliName(), builder.parameters(),
                rates[0], rates[1], windowed ? String.format("%.3f", rates[2]) : "-",
                windowed ? String.format("%.3f", rates[3]) : "-");
            if (kind == FilterKind.BLOOM)
            {
                assertEquals(0.0, rates[1], "a Bloom filter has no false negative");
            }
            if (kind == FilterKind.BDBF)
            {
                assertEquals(0.0, rates[3], "b_DBF has no false negative within its window");
            }
        }
    }

    /** @return {DDP FPR %, DDP FNR %, wDDP FPR %, wDDP FNR %} (window {@link #WINDOW}). */
    private static double[] measure(final FilterBuilder builder, final int[] stream)
    {
        final long[] lastSeen = new long[ALPHABET];
        Arrays.fill(lastSeen, -1);
        final long[] counts = new long[8];
        try (DuplicateFilter filter = builder.create())
        {
            for (int t = 0; t < stream.length; t++)
            {
                final int e = stream[t];
                final boolean judged = filter.stream(e) == Verdict.DUPLICATE;
                final boolean seen = lastSeen[e] >= 0;
                final boolean inWindow = seen && t - lastSeen[e] <= WINDOW;
                counts[seen ? 2 : 0]++;
                counts[seen ? 3 : 1] += judged == seen ? 0 : 1;
                counts[inWindow ? 6 : 4]++;
                counts[inWindow ? 7 : 5] += judged == inWindow ? 0 : 1;
                lastSeen[e] = t;
            }
        }
        return new double[] {100.0 * counts[1] / counts[0], 100.0 * counts[3] / counts[2],
            100.0 * counts[5] / counts[4], 100.0 * counts[7] / counts[6]};
    }
}
