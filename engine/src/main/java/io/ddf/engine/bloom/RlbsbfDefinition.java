package io.ddf.engine.bloom;

import io.ddf.engine.CommonParams;
import io.ddf.engine.FilterCore;
import io.ddf.engine.FilterKind;
import io.ddf.engine.GivenParameters;
import io.ddf.engine.KindDefinition;
import io.ddf.engine.MappedWords;
import io.ddf.engine.ParamDef;

import java.util.List;
import java.util.Map;

/**
 * Randomized Load Balanced BSBF (seed 003, Alg. 4): memory-bits M (default 2^26) and hash-functions k (default 2), k sub-filters of ⌊M / k⌋ bits.
 */
public final class RlbsbfDefinition extends KindDefinition
{
    /** The definition. */
    public RlbsbfDefinition()
    {
    }

    @Override
    public FilterKind kind()
    {
        return FilterKind.RLBSBF;
    }

    @Override
    public List<ParamDef> params()
    {
        return List.of(CommonParams.MEMORY_BITS, CommonParams.HASH_FUNCTIONS);
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        return SampledDefinitions.resolve(given);
    }

    @Override
    public void check(final long[] slots)
    {
        SampledDefinitions.check(slots);
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return layout(slots).bytes();
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        final SubFilters layout = layout(slots);
        return new RlbsbfCore(region.slice(0, layout.words()), layout);
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        return SampledDefinitions.describe(slots[SampledDefinitions.MEMORY], slots[SampledDefinitions.HASH_FUNCTIONS]);
    }

    private static SubFilters layout(final long[] slots)
    {
        return new SubFilters(slots[SampledDefinitions.MEMORY], (int)slots[SampledDefinitions.HASH_FUNCTIONS]);
    }
}
