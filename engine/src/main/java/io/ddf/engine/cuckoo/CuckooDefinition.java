package io.ddf.engine.cuckoo;

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
 * The streaming cuckoo filter's parameters: memory M in bits, b slots per bucket, f-bit fingerprints and the
 * relocation bound. The table has n = ⌊M / (b·f)⌋ buckets (any n: the partner bucket is (h(fp) − i) mod n), packed
 * into whole words as {@link CuckooLayout} says. Refuses 2b ≥ 2^f − 1: an element's two full buckets could then
 * hold every fingerprint and answer DUPLICATE to everything.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
public final class CuckooDefinition extends KindDefinition
{
    /** Default memory: 2^26 bits (8 MiB). */
    static final long DEFAULT_MEMORY_BITS = 1L << 26;
    /** Default slots per bucket (Fan et al.'s recommended b = 4). */
    static final int DEFAULT_SLOTS = 4;
    /** Default fingerprint bits: a bucket of four fills one word. */
    static final int DEFAULT_FINGERPRINT_BITS = 16;
    /**
     * Default relocation bound for new files (issue 11): 32. Fan et al.'s reference implementation uses 500, which a
     * saturated streaming filter spends on every insertion (8.7 µs per element at 1 Mbit, b = 4, f = 16, against
     * 0.57 µs at 32: bench/cuckoo-kicks.sh, results in bench/results/cuckoo-kicks/). Once saturated, every
     * insertion drops one fingerprint whatever the bound; the bound only chooses which, and the QHT paper Table 2's
     * error moves by less than half a point (same results). A file keeps the bound in its header, so files made
     * with 500 keep 500.
     */
    static final int DEFAULT_MAX_KICKS = 32;
    /** Largest table: 2^43 bits (1 TiB). */
    static final long MAX_MEMORY_BITS = 1L << 43;
    /** Largest fingerprint. */
    static final int MAX_FINGERPRINT_BITS = 32;
    /** Largest bucket. */
    static final int MAX_SLOTS = 64;
    /** Largest relocation bound. */
    static final int MAX_KICKS = 1 << 20;

    static final int MEMORY = 0;
    static final int SLOTS = 1;
    static final int FINGERPRINT = 2;
    static final int KICKS = 3;

    private static final ParamDef P_MAX_KICKS = ParamDef.longOption("max-kicks",
        "Relocations per insertion before dropping (default " + DEFAULT_MAX_KICKS + ").");
    private static final List<ParamDef> PARAMS = List.of(CommonParams.MEMORY_BITS, CommonParams.BUCKETS,
        CommonParams.FINGERPRINT_BITS, P_MAX_KICKS);

    /** The definition. */
    public CuckooDefinition()
    {
    }

    @Override
    public int code()
    {
        return KindCodes.CUCKOO;
    }

    @Override
    public List<ParamDef> params()
    {
        return PARAMS;
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        final long m = given.getLong(CommonParams.MEMORY_BITS.name(), DEFAULT_MEMORY_BITS);
        final long b = given.getLong(CommonParams.BUCKETS.name(), DEFAULT_SLOTS);
        final long f = given.getLong(CommonParams.FINGERPRINT_BITS.name(), DEFAULT_FINGERPRINT_BITS);
        final long kicks = given.getLong(P_MAX_KICKS.name(), DEFAULT_MAX_KICKS);
        require(b >= 1 && b <= MAX_SLOTS, "buckets (slots per bucket) must be in 1.." + MAX_SLOTS + ", got " + b);
        require(f >= 1 && f <= MAX_FINGERPRINT_BITS,
            "fingerprint-bits must be in 1.." + MAX_FINGERPRINT_BITS + ", got " + f);
        require(kicks >= 0 && kicks <= MAX_KICKS, "max-kicks must be in 0.." + MAX_KICKS + ", got " + kicks);
        require(m <= MAX_MEMORY_BITS, "memory-bits must be at most 2^43 (1 TiB), got " + m);
        require(m >= b * f, "memory-bits " + m + " is less than one bucket of " + b + " x " + f + " bits");
        final long[] slots = {m, b, f, kicks};
        require(2 * b < distinctFingerprints(slots), "buckets (" + b + ") must be below half the " +
            distinctFingerprints(slots) + " distinct non-empty fingerprints: an element's two full buckets would " +
            "otherwise hold every value and answer DUPLICATE to everything; raise fingerprint-bits");
        return slots;
    }

    @Override
    public void check(final long[] slots)
    {
        require(slots.length == PARAMS.size(), "expected " + PARAMS.size() + " parameters");
        require(slots[SLOTS] >= 1 && slots[SLOTS] <= MAX_SLOTS, "buckets out of range");
        require(slots[FINGERPRINT] >= 1 && slots[FINGERPRINT] <= MAX_FINGERPRINT_BITS, "fingerprint-bits out of range");
        require(slots[KICKS] >= 0 && slots[KICKS] <= MAX_KICKS, "max-kicks out of range");
        require(slots[MEMORY] >= slots[SLOTS] * slots[FINGERPRINT] && slots[MEMORY] <= MAX_MEMORY_BITS,
            "memory-bits out of range");
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return layout(slots).regionBytes();
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        final CuckooLayout layout = layout(slots);
        final MappedWords mine = region.slice(0, CuckooLayout.STATE_WORDS + layout.tableWords());
        return layout.wide() ?
            new WideCuckooCore(layout, (int)slots[KICKS], mine) :
            new NarrowCuckooCore(layout, (int)slots[KICKS], mine);
    }

    /** Bits outside the fingerprint slots must be zero (see {@link CuckooLayout#checkUnusedBitsZero}). */
    @Override
    public void checkStructure(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        layout(slots).checkUnusedBitsZero(region);
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final CuckooLayout layout = layout(slots);
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("cuckoo-buckets", Long.toString(layout.buckets()));
        map.put("fingerprint-slots", Long.toString(layout.buckets() * layout.slots()));
        map.put("distinct-fingerprints", Long.toString(distinctFingerprints(slots)));
        map.put("bucket-layout", layout.describe());
        return map;
    }

    /**
     * @param slots resolved parameters.
     * @return the table's layout.
     */
    static CuckooLayout layout(final long[] slots)
    {
        final long bucketBits = slots[SLOTS] * slots[FINGERPRINT];
        return new CuckooLayout(slots[MEMORY] / bucketBits, (int)slots[SLOTS], (int)slots[FINGERPRINT]);
    }

    /**
     * @param slots resolved parameters.
     * @return 2^f − 1: 0 marks an empty slot.
     */
    static long distinctFingerprints(final long[] slots)
    {
        return (1L << slots[FINGERPRINT]) - 1;
    }
}
