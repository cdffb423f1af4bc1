package io.ddf.engine;

import java.util.List;
import java.util.function.LongFunction;

/**
 * Contract-test configurations of the Bloom family. Memory is 64 bits per element of capacity (at least 2^14), so
 * a filter holding its capacity has a negligible false positive rate; the windowed kinds (A2, b_DBF) get a window
 * of the capacity. None is atomic per element: every kind spreads an element over several words.
 *
 * <p>False-negative tolerance is 0 for the kinds that never forget while below capacity: Bloom (never deletes),
 * RSBF (its first s arrivals are inserted without any reset, and the contract streams far fewer), A2 and b_DBF
 * (they forget only what left the window). It is 1% for SBF, BSBF, BSBFSD and RLBSBF: they decrement or reset
 * cells at random on every insertion from the first one, so a held element can lose a cell at any time (the
 * expected count in the contract's run is below one).
 */
final class BloomConfigs
{
    private static final double RANDOM_RESET_TOLERANCE = 0.01;

    private BloomConfigs()
    {
    }

    static List<FilterConfigs.Config> list()
    {
        return List.of(
            config("bloom K=4", c -> bloom(FilterKind.BLOOM, c).param("hash-functions", 4), 0.0),
            config("bloom keyed K=3", c -> bloom(FilterKind.BLOOM, c).param("hash-functions", 3).keyed(true), 0.0),
            config("sbf d=2 K=2 fpr=0.02", c -> bloom(FilterKind.SBF, c), RANDOM_RESET_TOLERANCE),
            config("sbf d=3 K=3 fpr=0.01 (21 cells/word)", c -> bloom(FilterKind.SBF, c).param("cell-bits", 3)
                .param("hash-functions", 3).param("target-fpr", 0.01), RANDOM_RESET_TOLERANCE),
            config("rsbf K=2 p*=0.03", c -> bloom(FilterKind.RSBF, c).param("hash-functions", 2), 0.0),
            config("rsbf K from target-fpr 0.1", c -> bloom(FilterKind.RSBF, c).param("target-fpr", 0.1)
                .param("reservoir-threshold", 0.05), 0.0),
            config("bsbf K=2", c -> bloom(FilterKind.BSBF, c), RANDOM_RESET_TOLERANCE),
            config("bsbfsd K=2", c -> bloom(FilterKind.BSBFSD, c), RANDOM_RESET_TOLERANCE),
            config("rlbsbf K=2", c -> bloom(FilterKind.RLBSBF, c), RANDOM_RESET_TOLERANCE),
            config("rlbsbf keyed K=3", c -> bloom(FilterKind.RLBSBF, c).param("hash-functions", 3).keyed(true),
                RANDOM_RESET_TOLERANCE),
            config("a2 window=capacity", c -> bloom(FilterKind.A2, c).window(c), 0.0),
            config("bdbf window=capacity", c -> bloom(FilterKind.BDBF, c).window(c)
                .memoryBits(Math.max(c * 256, 1 << 14)), 0.0),
            // fifo-bloom forgets nothing up to its capacity; past it (the equivalence tests go far past) it rotates
            config("fifo-bloom blocked", c -> fifo(c, 0.001), 0.0),
            config("fifo-bloom blocked d=2", c -> fifo(c, 1e-5).param("blocks-per-item", 2L), 0.0),
            config("fifo-bloom 1.0 layout", c -> fifo(c, 0.001).param("blocks-per-item", 0L), 0.0),
            // a window of time (layout 2.1) of a day on a wall clock that stands still (the files are the same
            // whenever made, as the equivalence tests compare them): the contract's runs turn by count only
            config("fifo-bloom window 1d", c -> fifo(c, 0.001).window(java.time.Duration.ofDays(1))
                .clock(java.time.InstantSource.fixed(java.time.Instant.ofEpochMilli(1_700_000_000_000L))), 0.0));
    }

    private static FilterConfigs.Config config(final String name, final LongFunction<FilterBuilder> builder,
        final double tolerance)
    {
        return new FilterConfigs.Config(name, builder, tolerance, false);
    }

    private static FilterBuilder fifo(final long capacity, final double errorRate)
    {
        return Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", capacity).param("target-fpr", errorRate)
            .seed(capacity * 131 + FilterKind.FIFO_BLOOM.code());
    }

    private static FilterBuilder bloom(final FilterKind kind, final long capacity)
    {
        return Filters.builder(kind).memoryBits(Math.max(capacity * 64, 1 << 14)).seed(capacity * 131 + kind.code());
    }
}
