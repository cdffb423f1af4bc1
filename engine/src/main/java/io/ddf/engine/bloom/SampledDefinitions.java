package io.ddf.engine.bloom;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.CommonParams;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.ParamDef;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What BSBF, BSBFSD and RLBSBF (sampling Bloom filters paper, Alg. 2–4) share: M bits of memory (default 2^26) as k
 * sub-filters of s = ⌊M / k⌋ bits, k = hash-functions (default 2, the value §6.1 settles on from Tables 1–3 and §6.3
 * uses). Each kind only says which core runs over the sub-filters.
 *
 * <p>The sampling Bloom filters paper: S. K. Bera, S. Dutta, A. Narang and S. Bhattacherjee, "Advanced Bloom Filter
 * Based Algorithms for Efficient Approximate Data De-Duplication in Streams", 2012 (arXiv:1212.3964).
 */
abstract class SampledDefinitions extends KindDefinition
{
    /** Default k of BSBF, BSBFSD and RLBSBF. */
    static final int DEFAULT_HASH_FUNCTIONS = 2;

    static final int MEMORY = 0;
    static final int HASH_FUNCTIONS = 1;

    private final int kind;

    /**
     * @param kind BSBF, BSBFSD or RLBSBF.
     */
    SampledDefinitions(final int kind)
    {
        this.kind = kind;
    }

    /**
     * @param region the table, {@code layout.words()} long.
     * @param layout the sub-filters.
     * @return the kind's algorithm over them.
     */
    abstract FilterCore core(MappedWords region, SubFilters layout);

    @Override
    public final int code()
    {
        return kind;
    }

    @Override
    public final List<ParamDef> params()
    {
        return List.of(CommonParams.MEMORY_BITS, CommonParams.HASH_FUNCTIONS);
    }

    @Override
    public final long[] resolve(final GivenParameters given)
    {
        return resolveSlots(given);
    }

    @Override
    public final void check(final long[] slots)
    {
        checkSlots(slots);
    }

    @Override
    public final long tableBytes(final long[] slots)
    {
        return layout(slots).bytes();
    }

    @Override
    public final FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        final SubFilters layout = layout(slots);
        return core(region.slice(0, layout.words()), layout);
    }

    @Override
    public final Map<String, String> describe(final long[] slots)
    {
        return describe(slots[MEMORY], slots[HASH_FUNCTIONS]);
    }

    private static SubFilters layout(final long[] slots)
    {
        return new SubFilters(slots[MEMORY], (int)slots[HASH_FUNCTIONS]);
    }

    /**
     * @param given the user's parameters.
     * @return {memory-bits, hash-functions}.
     */
    static long[] resolveSlots(final GivenParameters given)
    {
        final long[] slots = {
            given.getLong(CommonParams.MEMORY_BITS.name(), BloomParams.DEFAULT_MEMORY_BITS),
            given.getLong(CommonParams.HASH_FUNCTIONS.name(), DEFAULT_HASH_FUNCTIONS)};
        checkSlots(slots);
        return slots;
    }

    /**
     * @param slots {memory-bits, hash-functions}.
     * @throws IllegalArgumentException when out of range.
     */
    static void checkSlots(final long[] slots)
    {
        if (slots.length != 2)
        {
            throw new IllegalArgumentException("expected 2 parameters");
        }
        checkMemoryAndFilters(slots[MEMORY], slots[HASH_FUNCTIONS]);
    }

    /**
     * @param memory M.
     * @param k      sub-filters.
     * @throws IllegalArgumentException when out of range.
     */
    static void checkMemoryAndFilters(final long memory, final long k)
    {
        String message = BloomParams.checkMemory(memory);
        if (message == null)
        {
            message = BloomParams.checkHashFunctions(k);
        }
        if (message != null)
        {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * @param memory M.
     * @param k      sub-filters.
     * @return facts for {@code ddf info}.
     */
    static Map<String, String> describe(final long memory, final long k)
    {
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("bits-per-subfilter", Long.toString(memory / k));
        return map;
    }
}
