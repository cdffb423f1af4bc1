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
 * A2 (Yoon): memory-bits M (default 2^26) split into two buffers of ⌊M / 2⌋ bits; window w (default 2^16), the
 * capacity n, so each buffer takes a quota of ⌊w / 2⌋ insertions (sliding-window paper swaps every w/2 insertions);
 * hash-functions K, by default the optimum for a buffer holding its quota, ln 2 · (M/2) / (w/2), within 1..8.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
public final class A2Definition extends KindDefinition
{
    static final int MEMORY = 0;
    static final int WINDOW = 1;
    static final int HASH_FUNCTIONS = 2;

    /** The definition. */
    public A2Definition()
    {
    }

    @Override
    public int code()
    {
        return KindCodes.A2;
    }

    @Override
    public List<ParamDef> params()
    {
        return List.of(CommonParams.MEMORY_BITS, CommonParams.WINDOW, CommonParams.HASH_FUNCTIONS);
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        final long memory = given.getLong(CommonParams.MEMORY_BITS.name(), BloomParams.DEFAULT_MEMORY_BITS);
        final long window = given.getLong(CommonParams.WINDOW.name(), BloomParams.DEFAULT_WINDOW);
        checkMemoryAndWindow(memory, window);
        final long k = given.getLong(CommonParams.HASH_FUNCTIONS.name(),
            BloomParams.optimalHashFunctions(memory / 2, window / 2));
        final long[] slots = {memory, window, k};
        check(slots);
        return slots;
    }

    @Override
    public void check(final long[] slots)
    {
        require(slots.length == 3, "expected 3 parameters");
        checkMemoryAndWindow(slots[MEMORY], slots[WINDOW]);
        final String k = BloomParams.checkHashFunctions(slots[HASH_FUNCTIONS]);
        require(k == null, k);
    }

    private static void checkMemoryAndWindow(final long memory, final long window)
    {
        final String m = BloomParams.checkMemory(memory);
        require(m == null, m);
        require(window >= 2 && window <= BloomParams.MAX_WINDOW, "window must be in 2..2^40 (each buffer takes " +
            "window / 2 insertions), got " + window);
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return cacheLines(A2Core.regionWords(slots[MEMORY] / 2) * 8);
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        final long bits = slots[MEMORY] / 2;
        return new A2Core(region.slice(0, A2Core.regionWords(bits)), bits, (int)slots[HASH_FUNCTIONS],
            slots[WINDOW] / 2);
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("bits-per-buffer", Long.toString(slots[MEMORY] / 2));
        map.put("insertions-per-buffer", Long.toString(slots[WINDOW] / 2));
        return map;
    }
}
