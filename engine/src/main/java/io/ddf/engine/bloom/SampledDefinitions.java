package io.ddf.engine.bloom;

import io.ddf.engine.CommonParams;
import io.ddf.engine.GivenParameters;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What BSBF, BSBFSD and RLBSBF (seed 003, Alg. 2–4) share: M bits of memory (default 2^26) as k sub-filters of
 * s = ⌊M / k⌋ bits, k = hash-functions (default 2, the value §6.1 settles on from Tables 1–3 and §6.3 uses).
 */
final class SampledDefinitions
{
    /** Default k of BSBF, BSBFSD and RLBSBF. */
    static final int DEFAULT_HASH_FUNCTIONS = 2;

    static final int MEMORY = 0;
    static final int HASH_FUNCTIONS = 1;

    private SampledDefinitions()
    {
    }

    /**
     * @param given the user's parameters.
     * @return {memory-bits, hash-functions}.
     */
    static long[] resolve(final GivenParameters given)
    {
        final long[] slots = {
            given.getLong(CommonParams.MEMORY_BITS.name(), BloomParams.DEFAULT_MEMORY_BITS),
            given.getLong(CommonParams.HASH_FUNCTIONS.name(), DEFAULT_HASH_FUNCTIONS)};
        check(slots);
        return slots;
    }

    /**
     * @param slots {memory-bits, hash-functions}.
     * @throws IllegalArgumentException when out of range.
     */
    static void check(final long[] slots)
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
