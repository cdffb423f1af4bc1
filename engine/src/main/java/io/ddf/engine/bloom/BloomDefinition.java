package io.ddf.engine.bloom;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.CommonParams;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.engine.spi.KindCodes;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.ParamDef;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plain Bloom filter, the saturating reference: M bits (default 2^26), K hash functions (default 4; a plain
 * Bloom filter on an unbounded stream has no capacity to optimise K for, and 4 is optimal for M / (4 ln 2) ≈
 * 0.36 M elements, near where its FPR reaches 1/16).
 */
public final class BloomDefinition extends KindDefinition
{
    /** Default K. */
    static final int DEFAULT_HASH_FUNCTIONS = 4;

    private static final int MEMORY = 0;
    private static final int HASH_FUNCTIONS = 1;

    /** The definition. */
    public BloomDefinition()
    {
    }

    @Override
    public int code()
    {
        return KindCodes.BLOOM;
    }

    @Override
    public List<ParamDef> params()
    {
        return List.of(CommonParams.MEMORY_BITS, CommonParams.HASH_FUNCTIONS);
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        final long[] slots = {
            given.getLong(CommonParams.MEMORY_BITS.name(), BloomParams.DEFAULT_MEMORY_BITS),
            given.getLong(CommonParams.HASH_FUNCTIONS.name(), DEFAULT_HASH_FUNCTIONS)};
        check(slots);
        return slots;
    }

    @Override
    public void check(final long[] slots)
    {
        require(slots.length == 2, "expected 2 parameters");
        final String memory = BloomParams.checkMemory(slots[MEMORY]);
        require(memory == null, memory);
        final String k = BloomParams.checkHashFunctions(slots[HASH_FUNCTIONS]);
        require(k == null, k);
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return cacheLines(((slots[MEMORY] + 63) >>> 6) * 8);
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        return new BloomCore(region.slice(0, (slots[MEMORY] + 63) >>> 6), slots[MEMORY], (int)slots[HASH_FUNCTIONS]);
    }

    /**
     * A Bloom filter over a region with enhanced double hashing ({@link Hashes#enhancedPosition}), for the capacity
     * filter's subfilters.
     *
     * @param region the table, at least ⌈bits / 64⌉ words.
     * @param bits   m.
     * @param k      K.
     * @return the filter.
     */
    public static FilterCore enhancedCore(final MappedWords region, final long bits, final int k)
    {
        return new BloomCore(region.slice(0, (bits + 63) >>> 6), bits, k, true);
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("optimal-for-elements", Long.toString(Math.round(slots[MEMORY] * Math.log(2) / slots[HASH_FUNCTIONS])));
        return map;
    }
}
