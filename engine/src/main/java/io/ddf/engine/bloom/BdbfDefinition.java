package io.ddf.engine.bloom;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.PackedCells;
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
 * Block-decaying Bloom filter (Shen and Zhang), in the exact-time form {@link BdbfCore} describes: memory-bits M
 * (default 2^26) as ⌊M / 64⌋ words of ⌊64 / b⌋ cells of b = ⌈log2(3w + 3)⌉ bits; window w (default 2^16);
 * hash-functions K, by default the optimum for the cells holding one window, ln 2 · m / w, within 1..8.
 */
public final class BdbfDefinition extends KindDefinition
{
    static final int MEMORY = 0;
    static final int WINDOW = 1;
    static final int HASH_FUNCTIONS = 2;

    /** The definition. */
    public BdbfDefinition()
    {
    }

    @Override
    public int code()
    {
        return KindCodes.BDBF;
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
            BloomParams.optimalHashFunctions(layout(memory, window).cells(), window));
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
        require(window >= 1 && window <= BloomParams.MAX_WINDOW, "window must be in 1..2^40, got " + window);
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return cacheLines((BdbfCore.STATE_WORDS + layout(slots[MEMORY], slots[WINDOW]).words()) * 8);
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        final PackedCells layout = layout(slots[MEMORY], slots[WINDOW]);
        return new BdbfCore(region.slice(0, BdbfCore.STATE_WORDS + layout.words()), layout,
            (int)slots[HASH_FUNCTIONS], slots[WINDOW]);
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final PackedCells layout = layout(slots[MEMORY], slots[WINDOW]);
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("stamp-bits", Integer.toString(layout.cellBits()));
        map.put("cells", Long.toString(layout.cells()));
        return map;
    }

    private static PackedCells layout(final long memory, final long window)
    {
        return PackedCells.ofMemory(memory, BdbfCore.stampBits(window));
    }
}
