package io.ddf.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Contract-test configurations of the window family. A windowed kind gets a window of the capacity; a queuing
 * construction L = 4 subfilters of c = capacity / 2 insertions (window 2 × capacity), so it remembers at least the
 * c·(L − 1) + 1 = 1.5 × capacity + 1 elements before each one, with memory to spare in every subfilter.
 */
final class WindowConfigs
{
    private static final int SUBFILTERS = 4;

    private WindowConfigs()
    {
    }

    static List<FilterConfigs.Config> list()
    {
        final List<FilterConfigs.Config> list = new ArrayList<>(List.of(
            config("exact-window", cap -> Filters.builder(FilterKind.EXACT_WINDOW).window(cap).seed(cap + 1), true),
            config("exact-window keyed", cap -> Filters.builder(FilterKind.EXACT_WINDOW).window(cap).keyed(true), true),
            // f = floor(M / 2w - log2(w) / 2) = 40: ring of one fingerprint per word, one-word table cells.
            config("shf f=40 (by memory)", cap -> Filters.builder(FilterKind.SHF).window(cap)
                .memoryBits(shfMemory(cap, 40)).seed(cap + 2), true),
            // Atomic per element, but with 24-bit fingerprints some of the concurrency test's 4096 keys would be
            // false positives of others (about one per round), so it is not offered to that test.
            config("shf f=24 (2 per word)", cap -> Filters.builder(FilterKind.SHF).window(cap).fingerprintBits(24)
                .seed(cap + 3), false),
            // Default memory 2^26: f capped at 64, two-word table cells.
            config("shf f=64 (default memory)", cap -> Filters.builder(FilterKind.SHF).window(cap).seed(cap + 4), true),
            // CSHF scans its whole ring, O(w), under its lock: atomic per element, but too slow for the concurrency
            // test (4 threads x 2^14 scans of 2^16 slots x 20 rounds), so it is not offered to it. Above capacity
            // 1024 (no false-positive-sensitive contract test is that large) 4-bit fingerprints, 16 to a word, keep
            // the allocation test's 4.2 million scans of a 4096-slot ring quick.
            config("cshf f=16 (4 per word; f=4 above capacity 1024)", cap -> Filters.builder(FilterKind.CSHF)
                .window(cap).memoryBits((cap > 1024 ? 4 : 16) * cap).seed(cap + 5), false),
            // Quotient subfilters of 4c rows for their c elements. Wide QHT rows (4 x 24 bits, row lock): among the
            // concurrency test's 4096 keys, no false positive (~2^-24 per pair sharing a row) and no row of 5 keys
            // (which would evict one, and a re-inserted key gets a second UNSEEN) in practice.
            config("queue L=4 over qht k=4 s=24", cap -> queue(FilterKind.QHT, cap, quotientMemory(cap, 4 * 24))
                .buckets(4).fingerprintBits(24).seed(cap + 7), true),
            config("queue L=4 over qht keyed k=4 s=16", cap -> queue(FilterKind.QHT, cap, quotientMemory(cap, 4 * 16))
                .buckets(4).fingerprintBits(16).keyed(true), false),
            // Signatures of r' + ceil(log2(r + 1)) = 25 bits, 5 x 2^20 distinct ones.
            config("queue L=4 over sqf k=4 r=24 r'=20", cap -> queue(FilterKind.SQF, cap, quotientMemory(cap, 4 * 25))
                .buckets(4).remainderBits(24).reducedBits(20).seed(cap + 8), true),
            config("queue L=4 over qht by rows", cap -> Filters.builder(FilterKind.QHT).window(2 * cap)
                .subfilters(SUBFILTERS).rows(2 * cap).seed(cap + 9), false),
            config("queue L=4 over exact-window", cap -> Filters.builder(FilterKind.EXACT_WINDOW).window(2 * cap)
                .subfilters(SUBFILTERS).seed(cap + 10), true)));
        // Queues over the other families' kinds: 32 bits of memory per element of each subfilter
        // (at least 2^14, as the Bloom family's own configurations).
        addQueueOver(list, FilterKind.BLOOM, 0.0);
        addQueueOver(list, FilterKind.SBF, 0.01);
        addQueueOver(list, FilterKind.CUCKOO, 0.0);
        return list;
    }

    private static void addQueueOver(final List<FilterConfigs.Config> list, final FilterKind kind,
        final double falseNegativeTolerance)
    {
        list.add(new FilterConfigs.Config("queue L=4 over " + kind.cliName(),
            cap -> queue(kind, cap, SUBFILTERS * Math.max(32L * (cap / 2), 1 << 14)).seed(cap + kind.code()),
            falseNegativeTolerance, false));
    }

    /** A queue of 4 subfilters of c = capacity / 2 insertions and the given total memory. */
    private static FilterBuilder queue(final FilterKind kind, final long capacity, final long memoryBits)
    {
        return Filters.builder(kind).window(SUBFILTERS * Math.max(1, capacity / 2)).subfilters(SUBFILTERS)
            .memoryBits(memoryBits);
    }

    /** Total memory of a queue whose quotient subfilters have 4c rows of the given bits (c = capacity / 2). */
    private static long quotientMemory(final long capacity, final int rowBits)
    {
        return SUBFILTERS * 4L * Math.max(1, capacity / 2) * rowBits;
    }

    /** The memory for which SHF's fingerprints have f bits: 2w·f + w·log2 w (w a power of two here). */
    private static long shfMemory(final long window, final int f)
    {
        return 2 * window * f + window * (63 - Long.numberOfLeadingZeros(window));
    }

    private static FilterConfigs.Config config(final String name, final LongFunction<FilterBuilder> builder,
        final boolean atomic)
    {
        return new FilterConfigs.Config(name, builder, 0.0, atomic);
    }
}
