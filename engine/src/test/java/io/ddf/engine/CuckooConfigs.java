package io.ddf.engine;

import java.util.List;
import java.util.function.LongFunction;

/**
 * Contract-test configurations of the cuckoo family: the streaming cuckoo filter (capacity → 2 fingerprint slots
 * per element, load at most 1/2) and Dynamic SQF (capacity → rows, with a pool of k buckets per row).
 *
 * <p>Both kinds are atomic per element, but {@link ConcurrentStreamTest} streams random keys, among which a
 * genuine false positive (two keys sharing a fingerprint and a bucket, or a signature and a row) also shows as a
 * key with no UNSEEN: with 16-bit fingerprints or 13-bit signatures that happens in a few per cent of its runs.
 * So only the configurations with 30- and 32-bit values are marked atomic; the cuckoo package's own concurrency
 * test covers 16-bit fingerprints with keys chosen to have distinct fingerprints. The contract configurations
 * bound relocations at 20 (the default is 500) so that overfull filters in the allocation test stay fast.
 */
final class CuckooConfigs
{
    private static final int KICKS = 20;

    private CuckooConfigs()
    {
    }

    static List<FilterConfigs.Config> list()
    {
        return List.of(
            config("cuckoo b=4 f=16 (one word per bucket)", c -> cuckoo(c, 4, 16), false),
            config("cuckoo b=2 f=32 (one word per bucket)", c -> cuckoo(c, 2, 32), true),
            config("cuckoo b=1 f=8 (8 buckets per word)", c -> cuckoo(c, 1, 8), false),
            config("cuckoo b=4 f=32 (wide, table lock)", c -> cuckoo(c, 4, 32), true),
            config("cuckoo keyed b=2 f=32", c -> cuckoo(c, 2, 32).keyed(true), true),
            config("dsqf k=4 r=16 r'=8", c -> dsqf(c, 4, 16, 8), false),
            config("dsqf k=4 r=32 r'=24", c -> dsqf(c, 4, 32, 24), true),
            config("dsqf keyed k=2 r=32 r'=24", c -> dsqf(c, 2, 32, 24).keyed(true), true));
    }

    private static FilterConfigs.Config config(final String name, final LongFunction<FilterBuilder> builder,
        final boolean atomicInPractice)
    {
        return new FilterConfigs.Config(name, builder, 0.0, atomicInPractice);
    }

    private static FilterBuilder cuckoo(final long capacity, final int b, final int f)
    {
        // Two slots per element, in whole buckets: a load of at most 1/2, where relocation never runs out.
        final long buckets = Math.max(1, (2 * capacity + b - 1) / b);
        return Filters.builder(FilterKind.CUCKOO).memoryBits(buckets * b * f).buckets(b).fingerprintBits(f)
            .param("max-kicks", KICKS).seed(capacity * 31 + b * 7 + f);
    }

    private static FilterBuilder dsqf(final long capacity, final int k, final int r, final int rr)
    {
        return Filters.builder(FilterKind.DSQF).rows(capacity).buckets(k).remainderBits(r).reducedBits(rr)
            .seed(capacity + r);
    }
}
