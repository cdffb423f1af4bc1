package io.ddf.engine.composite;

import io.ddf.engine.bloom.BloomDefinition;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.model.FifoBloomModel;
import io.ddf.engine.spi.CommonParams;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.engine.spi.KindCodes;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.ParamDef;
import io.ddf.engine.window.QueueCore;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The capacity filter, {@code fifo-bloom}: what RedisBloom users mean by a Bloom filter of capacity n and error ε,
 * in fixed memory, that forgets the oldest items past n instead of growing or failing. L Bloom subfilters
 * ("generations", default 2) of c = ⌈n / L⌉ new items each, used in turn; an item is present if any subfilter holds
 * it; only items judged new are inserted and counted (see {@link QueueCore}'s new-only mode), so:
 * <ul>
 *   <li>up to n added items nothing is forgotten (a Bloom filter has no false negatives, and the first recycling
 *       happens at item L·c + 1 &gt; n);</li>
 *   <li>past n the oldest generation is cleared when a new one starts: the filter holds the newest (L − 1)·c to L·c
 *       items, and forgets exactly the older ones;</li>
 *   <li>the false positive rate is at most that of L full subfilters, which the sizing holds at or below ε, for
 *       ever ({@link FifoBloomModel}).</li>
 * </ul>
 * Why this and not a QHT or a cuckoo filter: at n = 10^7, ε = 0.01 it takes 13.9 MB where a QHT sized to forget at
 * most 0.1 % at n needs far more (the QHT evicts at random as rows fill), and it keeps the "forgets the oldest"
 * order, which a cuckoo filter's dropped victims do not; {@code bench/results/capacity-*.md} has the measurements.
 * L = 2 is the least memory (the bits grow as log2(L / ε) per item); a larger L forgets in smaller steps.
 *
 * <p>Slots: capacity n, generations L, target-fpr ε (as double bits), memory-bits (the total, L · m), hash-functions
 * K. Without memory-bits the kind sizes itself from n, L and ε; with it, each subfilter gets ⌊M / L⌋ bits and K
 * defaults to the optimum for c items. The table is L Bloom tables of m bits, each a whole number of cache lines;
 * the rotation counter (items inserted) and the newest ready generation are header state words 0 and 1, as in the
 * queuing construction, so {@link QueueCore#recover()} finishes a rotation a killed process left half done.
 */
public final class FifoBloomDefinition extends KindDefinition
{
    /** Default capacity n: a filter nobody sized does not forget within its first million items. */
    public static final long DEFAULT_CAPACITY = 1_000_000L;
    /** Default target false positive rate (RedisBloom's default error rate). */
    public static final double DEFAULT_TARGET_FPR = 0.01;
    /** Default generations L: the least memory. */
    public static final long DEFAULT_GENERATIONS = 2;
    /** Largest L. */
    static final long MAX_GENERATIONS = 64;
    /** Largest capacity: 2^40 items. */
    static final long MAX_CAPACITY = 1L << 40;

    /** Slot of the capacity n. */
    public static final int CAPACITY = 0;
    /** Slot of L. */
    public static final int GENERATIONS = 1;
    /** Slot of ε (double bits). */
    public static final int TARGET_FPR = 2;
    /** Slot of the total memory L · m. */
    public static final int MEMORY = 3;
    /** Slot of K. */
    public static final int HASH_FUNCTIONS = 4;

    /** Capacity n. */
    public static final ParamDef P_CAPACITY = ParamDef.longOption("capacity",
        "fifo-bloom: items kept before the oldest go (default 10^6).");
    /** Generations L. */
    public static final ParamDef P_GENERATIONS = ParamDef.longOption("generations",
        "fifo-bloom: Bloom subfilters L (default 2).");

    /** The definition. */
    public FifoBloomDefinition()
    {
    }

    @Override
    public int code()
    {
        return KindCodes.FIFO_BLOOM;
    }

    @Override
    public List<ParamDef> params()
    {
        return List.of(P_CAPACITY, P_GENERATIONS, CommonParams.TARGET_FPR, CommonParams.MEMORY_BITS,
            CommonParams.HASH_FUNCTIONS);
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        final long n = given.getLong(P_CAPACITY.name(), DEFAULT_CAPACITY);
        require(n >= 1 && n <= MAX_CAPACITY, "capacity must be in 1..2^40, got " + n);
        final long l = given.getLong(P_GENERATIONS.name(), DEFAULT_GENERATIONS);
        require(l >= 1 && l <= MAX_GENERATIONS, "generations must be in 1.." + MAX_GENERATIONS + ", got " + l);
        final double fpr = given.getDouble(CommonParams.TARGET_FPR.name(), DEFAULT_TARGET_FPR);
        require(fpr > 0 && fpr < 1, "target-fpr must be in (0, 1), got " + fpr);
        final long c = perSubfilter(n, l);
        final long bits;
        final long k;
        if (given.has(CommonParams.MEMORY_BITS.name()))
        {
            final long total = given.getLong(CommonParams.MEMORY_BITS.name(), 0);
            require(total >= 64 * l, "memory-bits must be at least 64 per generation, got " + total);
            bits = total / l;
            k = given.getLong(CommonParams.HASH_FUNCTIONS.name(), Math.max(FifoBloomModel.MIN_HASH_FUNCTIONS,
                Math.min(FifoBloomModel.MAX_HASH_FUNCTIONS, Math.round(Math.log(2) * bits / c))));
        }
        else
        {
            final long[] size = FifoBloomModel.bloomSize(c, FifoBloomModel.subfilterTarget(fpr, (int)l),
                FifoBloomModel.MIN_HASH_FUNCTIONS);
            bits = size[0];
            k = given.getLong(CommonParams.HASH_FUNCTIONS.name(), size[1]);
        }
        // only for a new filter: check() still opens files made with K = 1 before this rule
        require(k >= FifoBloomModel.MIN_HASH_FUNCTIONS, "hash-functions must be at least " +
            FifoBloomModel.MIN_HASH_FUNCTIONS + " for fifo-bloom (with one, the generations share bit positions and " +
            "the false positive rate is their union), got " + k);
        final long[] slots = {n, l, Double.doubleToLongBits(fpr), bits * l, k};
        check(slots);
        return slots;
    }

    @Override
    public void check(final long[] slots)
    {
        require(slots.length == 5, "expected 5 parameters");
        require(slots[CAPACITY] >= 1 && slots[CAPACITY] <= MAX_CAPACITY, "capacity out of range");
        final long l = slots[GENERATIONS];
        require(l >= 1 && l <= MAX_GENERATIONS, "generations out of range");
        final double fpr = Double.longBitsToDouble(slots[TARGET_FPR]);
        require(fpr > 0 && fpr < 1, "target-fpr out of range");
        require(slots[MEMORY] % l == 0 && slots[MEMORY] / l >= 64 && slots[MEMORY] / l <= 1L << 43,
            "memory-bits must be a multiple of generations, 64..2^43 bits each");
        require(slots[HASH_FUNCTIONS] >= 1 && slots[HASH_FUNCTIONS] <= FifoBloomModel.MAX_HASH_FUNCTIONS,
            "hash-functions must be in 1.." + FifoBloomModel.MAX_HASH_FUNCTIONS + ", got " + slots[HASH_FUNCTIONS]);
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return slots[GENERATIONS] * subfilterBytes(slots);
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        require(headerState != null, "fifo-bloom keeps its rotation in the file header, so it cannot be a subfilter");
        final long bits = slots[MEMORY] / slots[GENERATIONS];
        final int l = (int)slots[GENERATIONS];
        final long words = subfilterBytes(slots) / Long.BYTES;
        final FilterCore[] subfilters = new FilterCore[l];
        for (int i = 0; i < l; i++)
        {
            subfilters[i] = BloomDefinition.enhancedCore(region.slice(i * words, words), bits, (int)slots[HASH_FUNCTIONS]);
        }
        return new QueueCore(subfilters, perSubfilter(slots[CAPACITY], l), headerState, true);
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final FifoBloomModel model = model(slots);
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("items-per-generation", Long.toString(perSubfilter(slots[CAPACITY], slots[GENERATIONS])));
        map.put("bits-per-item", String.format(Locale.ROOT, "%.2f", (double)slots[MEMORY] / slots[CAPACITY]));
        map.put("worst-fpr", String.format(Locale.ROOT, "%.6f", model.worstFalsePositiveRate()));
        return map;
    }

    /**
     * @param slots resolved parameters of a fifo-bloom filter.
     * @return its error model.
     */
    public static FifoBloomModel model(final long[] slots)
    {
        return FifoBloomModel.of(slots[MEMORY], (int)slots[HASH_FUNCTIONS], slots[CAPACITY], (int)slots[GENERATIONS]);
    }

    private static long perSubfilter(final long capacity, final long generations)
    {
        return (capacity + generations - 1) / generations;
    }

    private static long subfilterBytes(final long[] slots)
    {
        return cacheLines(((slots[MEMORY] / slots[GENERATIONS] + 63) >>> 6) * 8);
    }
}
