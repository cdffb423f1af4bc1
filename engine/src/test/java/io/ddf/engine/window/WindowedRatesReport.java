package io.ddf.engine.window;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.MappedMemoryTestBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Measures FPR^w and FNR^w of every window-family kind on one common stream: 10^6 elements uniform over 2^18,
 * w = 10^4, M = 8·10^5 bits (seed 001's M = 10^5 bytes), queues with L = 10 (c = 1000). A long run (CSHF scans
 * 10^4 slots per element), so it runs only on request: {@code -Dddf.window.report=true}.
 */
@EnabledIfSystemProperty(named = "ddf.window.report", matches = "true")
class WindowedRatesReport extends MappedMemoryTestBase
{
    private static final int N = 1_000_000;
    private static final int ALPHABET = 1 << 18;
    private static final int W = 10_000;
    private static final long M = 800_000;
    private static final int L = 10;

    @Test
    void report()
    {
        final long seed = Long.getLong("ddf.test.seed", 20261122L);
        final long[] stream = new SplittableRandom(seed).ints(N, 0, ALPHABET).asLongStream().toArray();
        final Map<String, FilterBuilder> filters = new LinkedHashMap<>();
        filters.put("exact-window", Filters.builder(FilterKind.EXACT_WINDOW).window(W));
        filters.put("shf", Filters.builder(FilterKind.SHF).window(W).memoryBits(M));
        filters.put("cshf", Filters.builder(FilterKind.CSHF).window(W).memoryBits(M));
        // The paper's quotient settings (seed 001 §4.2): QHT 1 bucket of 3 bits, SQF 1 bucket, r = 2, r' = 1.
        filters.put("queue L=10 over qht k=1 s=3", Filters.builder(FilterKind.QHT).window(W).subfilters(L)
            .memoryBits(M).buckets(1).fingerprintBits(3));
        filters.put("queue L=10 over qht k=4 s=8", Filters.builder(FilterKind.QHT).window(W).subfilters(L)
            .memoryBits(M).buckets(4).fingerprintBits(8));
        filters.put("queue L=10 over sqf k=1 r=2 r'=1", Filters.builder(FilterKind.SQF).window(W).subfilters(L)
            .memoryBits(M).buckets(1).remainderBits(2).reducedBits(1));
        for (final FilterKind kind : new FilterKind[] {FilterKind.BLOOM, FilterKind.SBF, FilterKind.CUCKOO})
        {
            filters.put("queue L=10 over " + kind.cliName() + " (its defaults)", Filters.builder(kind).window(W)
                .subfilters(L).memoryBits(M));
        }
        filters.put("qht k=1 s=3 (no queue, for reference)", Filters.builder(FilterKind.QHT).memoryBits(M).buckets(1)
            .fingerprintBits(3));
        System.out.printf("stream: %d elements uniform over 2^18 (seed %d), w = %d, M = %d bits; rates over all "
            + "elements%n", N, seed, W, M);
        for (final Map.Entry<String, FilterBuilder> e : filters.entrySet())
        {
            final WindowedTruth truth = new WindowedTruth(W);
            final long start = System.nanoTime();
            final String parameters;
            try (DuplicateFilter filter = e.getValue().seed(seed).create())
            {
                parameters = filter.parameters().toString();
                for (final long element : stream)
                {
                    truth.record(element, filter.stream(element) == Verdict.DUPLICATE, true);
                }
            }
            System.out.printf("%-40s %s ER=%.4f (%.1f s)%n    %s%n", e.getKey(), truth, truth.fpr() + truth.fnr(),
                (System.nanoTime() - start) / 1e9, parameters);
            assertEquals(N, truth.unseen() + truth.duplicates());
        }
    }
}
