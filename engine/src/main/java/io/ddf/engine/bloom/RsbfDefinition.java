package io.ddf.engine.bloom;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.CommonParams;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.engine.spi.KindCodes;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.ParamDef;

import java.util.List;
import java.util.Map;

/**
 * Reservoir Sampling based Bloom Filter (sampling Bloom filters paper, Alg. 1): memory-bits M (default 2^26) as k
 * sub-filters of s = ⌊M / k⌋ bits; target-fpr FPRt (default 0.1, §6.1); hash-functions k, by default derived from FPRt
 * as §6.1 does: the arithmetic mean of 1 and eq. 6.1's ln(FPRt) / ln(1 − 1/e), rounded (3 for FPRt = 0.1; §6.3's tables
 * use k = 2, which can be given); reservoir-threshold p* (default 0.03, §6).
 *
 * <p>The sampling Bloom filters paper: S. K. Bera, S. Dutta, A. Narang and S. Bhattacherjee, "Advanced Bloom Filter
 * Based Algorithms for Efficient Approximate Data De-Duplication in Streams", 2012 (arXiv:1212.3964).
 */
public final class RsbfDefinition extends KindDefinition
{
    /** Default FPRt. */
    static final double DEFAULT_TARGET_FPR = 0.1;
    /** Default p*. */
    static final double DEFAULT_THRESHOLD = 0.03;

    static final int MEMORY = 0;
    static final int HASH_FUNCTIONS = 1;
    static final int TARGET_FPR = 2;
    static final int THRESHOLD = 3;

    /** The definition. */
    public RsbfDefinition()
    {
    }

    @Override
    public int code()
    {
        return KindCodes.RSBF;
    }

    @Override
    public List<ParamDef> params()
    {
        return List.of(CommonParams.MEMORY_BITS, CommonParams.HASH_FUNCTIONS, CommonParams.TARGET_FPR,
            BloomParams.RESERVOIR_THRESHOLD);
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        final double fpr = given.getDouble(CommonParams.TARGET_FPR.name(), DEFAULT_TARGET_FPR);
        require(fpr > 0 && fpr < 1, "target-fpr must be in (0, 1), got " + fpr);
        final double threshold = given.getDouble(BloomParams.RESERVOIR_THRESHOLD.name(), DEFAULT_THRESHOLD);
        final long[] slots = {
            given.getLong(CommonParams.MEMORY_BITS.name(), BloomParams.DEFAULT_MEMORY_BITS),
            given.getLong(CommonParams.HASH_FUNCTIONS.name(), hashFunctionsFor(fpr)),
            Double.doubleToLongBits(fpr),
            Double.doubleToLongBits(threshold)};
        check(slots);
        return slots;
    }

    /**
     * §6.1: k as the arithmetic mean of 1 and eq. 6.1's k = ln(FPRt) / ln(1 − 1/e).
     *
     * @param fpr FPRt.
     * @return k, rounded, within 1..{@link BloomParams#MAX_HASH_FUNCTIONS}.
     */
    static long hashFunctionsFor(final double fpr)
    {
        final double k61 = Math.log(fpr) / Math.log(1 - 1 / Math.E);
        return Math.max(1, Math.min(BloomParams.MAX_HASH_FUNCTIONS, Math.round((1 + k61) / 2)));
    }

    @Override
    public void check(final long[] slots)
    {
        require(slots.length == 4, "expected 4 parameters");
        SampledDefinitions.checkMemoryAndFilters(slots[MEMORY], slots[HASH_FUNCTIONS]);
        final double fpr = Double.longBitsToDouble(slots[TARGET_FPR]);
        require(fpr > 0 && fpr < 1, "target-fpr must be in (0, 1), got " + fpr);
        final double threshold = Double.longBitsToDouble(slots[THRESHOLD]);
        require(threshold >= 0 && threshold <= 1, "reservoir-threshold must be in [0, 1], got " + threshold);
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
        return new RsbfCore(region.slice(0, layout.words()), layout, Double.longBitsToDouble(slots[THRESHOLD]));
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final Map<String, String> map = SampledDefinitions.describe(slots[MEMORY], slots[HASH_FUNCTIONS]);
        final double threshold = Double.longBitsToDouble(slots[THRESHOLD]);
        final long s = slots[MEMORY] / slots[HASH_FUNCTIONS];
        map.put("threshold-from-position", threshold > 0 ? Long.toString((long)Math.ceil(s / threshold)) : "never");
        return map;
    }

    private static SubFilters layout(final long[] slots)
    {
        return new SubFilters(slots[MEMORY], (int)slots[HASH_FUNCTIONS]);
    }
}
