package io.ddf.engine.bloom;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.KindCodes;

/**
 * Biased Sampling based Bloom Filter (sampling Bloom filters paper, Alg. 2): memory-bits M (default 2^26) and
 * hash-functions k (default 2), k sub-filters of ⌊M / k⌋ bits.
 *
 * <p>The sampling Bloom filters paper: S. K. Bera, S. Dutta, A. Narang and S. Bhattacherjee, "Advanced Bloom Filter
 * Based Algorithms for Efficient Approximate Data De-Duplication in Streams", 2012 (arXiv:1212.3964).
 */
public final class BsbfDefinition extends SampledDefinitions
{
    /** The definition. */
    public BsbfDefinition()
    {
        super(KindCodes.BSBF);
    }

    @Override
    FilterCore core(final MappedWords region, final SubFilters layout)
    {
        return new BsbfCore(region, layout, false);
    }
}
