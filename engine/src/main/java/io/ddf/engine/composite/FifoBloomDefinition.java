package io.ddf.engine.composite;

import io.ddf.engine.bloom.BloomDefinition;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.model.BlockedBloomModel;
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
 * it; only items judged new are inserted and counted, so:
 * <ul>
 *   <li>up to n added items nothing is forgotten (a Bloom filter has no false negatives, and the first recycling
 *       happens at item L·c + 1 &gt; n);</li>
 *   <li>past n the oldest generation is recycled when a new one starts: the filter holds the newest (L − 1)·c to L·c
 *       items, and forgets exactly the older ones;</li>
 *   <li>the false positive rate is at most that of L full subfilters, which the sizing holds at or below ε, for
 *       ever ({@link FifoBloomModel}).</li>
 * </ul>
 * L = 2 is the least memory (L full generations answer about L times one generation's rate, so each generation must
 * reach about ε / L): 11.8 bits per item at ε = 0.01 and n = 10^7, 1.23 × RedisBloom's one-layer 9.59, where a
 * single blocked layer needs 10.1 (1.05 ×, {@code BlockedBloomModel}); even standard Bloom generations need 11.0
 * (1.15 ×). A forgetting filter of two generations cannot keep 1.1 × at the same error rate; the non-forgetting
 * layer (NONSCALING, the layers of a scaling chain) can.
 *
 * <p>Two layouts, told apart by the blocks-per-item slot ({@code FORMAT-FIFO-BLOOM.md}):
 * <ul>
 *   <li>2.0, blocks-per-item d = 1 or 2 (every new filter): each generation a blocked Bloom layer
 *       ({@link BlockedFifoCore}): an item's bits in one 64-byte block per generation (two for error rates below
 *       about 3·10^-4), sized by the blocked layer's exact rate ({@code BlockedBloomModel}); a generation is recycled
 *       in O(1) and zeroed lazily.</li>
 *   <li>1.0, blocks-per-item 0 (files made before, which open and answer as they did): each generation a standard
 *       Bloom filter of m bits with enhanced double hashing, recycled by clearing it whole
 *       ({@code window/QueueCore}).</li>
 * </ul>
 *
 * <p>Slots: capacity n, generations L, target-fpr ε (as double bits), memory-bits (the total, L · m), hash-functions
 * K, blocks-per-item d. Without memory-bits the kind sizes itself from n, L and ε; with it, each generation gets
 * ⌊M / L⌋ bits (whole 512-bit blocks in 2.0) and K defaults to the best for c items. The rotation counter and the
 * newest ready generation are header state words 0 and 1 in both layouts.
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
    /** Slot of d: 0 in the 1.0 layout (standard Bloom subfilters), 1 or 2 in the blocked 2.0 layout. */
    public static final int BLOCKS_PER_ITEM = 5;
    /** d of the 1.0 layout. */
    public static final long LAYOUT_1_0 = 0;

    /** Capacity n. */
    public static final ParamDef P_CAPACITY = ParamDef.longOption("capacity",
        "fifo-bloom: items kept before the oldest go (default 10^6).");
    /** Generations L. */
    public static final ParamDef P_GENERATIONS = ParamDef.longOption("generations",
        "fifo-bloom: Bloom subfilters L (default 2).");

    /** Blocks per item d (0 asks for the 1.0 layout). */
    public static final ParamDef P_BLOCKS_PER_ITEM = ParamDef.longOption("blocks-per-item",
        "fifo-bloom: 512-bit blocks per item, 1 or 2; 0 = 1.0 layout.");

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
            CommonParams.HASH_FUNCTIONS, P_BLOCKS_PER_ITEM);
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
        final long d = given.getLong(P_BLOCKS_PER_ITEM.name(), -1);
        require(d >= -1 && d <= BlockedBloomModel.MAX_BLOCKS_PER_ITEM, "blocks-per-item must be 1 or 2 (0 for the " +
            "1.0 layout), got " + d);
        final long[] slots = d == LAYOUT_1_0 ? resolveStandard(given, n, l, fpr) : resolveBlocked(given, n, l, fpr, d);
        check(slots);
        return slots;
    }

    /** The 2.0 layout: blocked generations. */
    private static long[] resolveBlocked(final GivenParameters given, final long n, final long l, final double fpr,
        final long blocksPerItem)
    {
        final long c = perSubfilter(n, l);
        final BlockedBloomModel layer;
        if (given.has(CommonParams.MEMORY_BITS.name()))
        {
            final long total = given.getLong(CommonParams.MEMORY_BITS.name(), 0);
            require(total >= l, "memory-bits must be at least generations, got " + total);
            // whole 512-bit blocks, at least one per generation
            final long blocks = Math.max(1, total / l / BlockedBloomModel.BLOCK_BITS);
            final int d = (int)(blocksPerItem > 0 ? blocksPerItem : 1);
            final long k = given.getLong(CommonParams.HASH_FUNCTIONS.name(), BlockedBloomModel.bestHashFunctions(blocks, d, c));
            require(k >= FifoBloomModel.MIN_HASH_FUNCTIONS && k % d == 0 && k / d <= BlockedBloomModel.MAX_BITS_PER_BLOCK,
                "hash-functions must be a multiple of blocks-per-item " + d + " in " +
                Math.max(FifoBloomModel.MIN_HASH_FUNCTIONS, d) + ".." + d * BlockedBloomModel.MAX_BITS_PER_BLOCK +
                " for a blocked fifo-bloom, got " + k);
            layer = new BlockedBloomModel(blocks, (int)k, d);
        }
        else
        {
            require(!given.has(CommonParams.HASH_FUNCTIONS.name()), "hash-functions is chosen with the blocks: give " +
                "it with memory-bits, or neither");
            layer = BlockedBloomModel.generationLayer(c, fpr, (int)l, (int)blocksPerItem);
        }
        return new long[] {n, l, Double.doubleToLongBits(fpr), layer.bits() * l, layer.hashFunctions(),
            layer.blocksPerItem()};
    }

    /** The 1.0 layout: standard Bloom generations, as files made before the blocked layout hold. */
    private static long[] resolveStandard(final GivenParameters given, final long n, final long l, final double fpr)
    {
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
        return new long[] {n, l, Double.doubleToLongBits(fpr), bits * l, k, LAYOUT_1_0};
    }

    @Override
    public void check(final long[] slots)
    {
        require(slots.length == 6, "expected 6 parameters");
        require(slots[CAPACITY] >= 1 && slots[CAPACITY] <= MAX_CAPACITY, "capacity out of range");
        final long l = slots[GENERATIONS];
        require(l >= 1 && l <= MAX_GENERATIONS, "generations out of range");
        final double fpr = Double.longBitsToDouble(slots[TARGET_FPR]);
        require(fpr > 0 && fpr < 1, "target-fpr out of range");
        final long d = slots[BLOCKS_PER_ITEM];
        require(d >= 0 && d <= BlockedBloomModel.MAX_BLOCKS_PER_ITEM, "blocks-per-item must be 0, 1 or 2");
        if (d == LAYOUT_1_0)
        {
            require(slots[MEMORY] % l == 0 && slots[MEMORY] / l >= 64 && slots[MEMORY] / l <= 1L << 43,
                "memory-bits must be a multiple of generations, 64..2^43 bits each");
            require(slots[HASH_FUNCTIONS] >= 1 && slots[HASH_FUNCTIONS] <= FifoBloomModel.MAX_HASH_FUNCTIONS,
                "hash-functions must be in 1.." + FifoBloomModel.MAX_HASH_FUNCTIONS + ", got " + slots[HASH_FUNCTIONS]);
            return;
        }
        final long perGeneration = BlockedBloomModel.BLOCK_BITS * l;
        require(slots[MEMORY] % perGeneration == 0 && slots[MEMORY] / perGeneration >= 1 &&
            slots[MEMORY] / perGeneration <= BlockedBloomModel.MAX_BLOCKS,
            "memory-bits must be generations x 512-bit blocks, 1..2^34 blocks each");
        final long k = slots[HASH_FUNCTIONS];
        require(k >= 1 && k % d == 0 && k / d <= BlockedBloomModel.MAX_BITS_PER_BLOCK, "hash-functions must be a " +
            "multiple of blocks-per-item in 1.." + d * BlockedBloomModel.MAX_BITS_PER_BLOCK + ", got " + k);
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        if (slots[BLOCKS_PER_ITEM] == LAYOUT_1_0)
        {
            return slots[GENERATIONS] * subfilterBytes(slots);
        }
        return BlockedFifoLayout.tableWords(blocks(slots), (int)slots[GENERATIONS]) * Long.BYTES;
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        require(headerState != null, "fifo-bloom keeps its rotation in the file header, so it cannot be a subfilter");
        if (slots[BLOCKS_PER_ITEM] != LAYOUT_1_0)
        {
            return new BlockedFifoCore(region, headerState, blocks(slots), (int)slots[HASH_FUNCTIONS],
                (int)slots[BLOCKS_PER_ITEM], (int)slots[GENERATIONS], perSubfilter(slots[CAPACITY], slots[GENERATIONS]));
        }
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

    /**
     * The 2.0 layout's header state: the published and swept generations at most the newest claimed, the sweep's
     * count at most its tickets. Every block state is a valid one (ZEROING is what a kill mid-zeroing leaves, and
     * recovery zeroes it again), and so is every bit pattern of a block.
     */
    @Override
    public void checkStructure(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        if (slots[BLOCKS_PER_ITEM] == LAYOUT_1_0 || headerState == null)
        {
            return;
        }
        final long claimed = headerState.getLongVolatile(BlockedFifoLayout.INSERTIONS);
        require(claimed >= 0, "items inserted " + claimed + " is negative");
        final long newest = claimed == 0 ? 0 : (claimed - 1) / perSubfilter(slots[CAPACITY], slots[GENERATIONS]);
        final long ready = headerState.getLongVolatile(BlockedFifoLayout.READY);
        final long swept = headerState.getLongVolatile(BlockedFifoLayout.SWEPT);
        require(ready >= 0 && ready <= newest, "published generation " + ready + " is not in 0.." + newest);
        require(swept >= 0 && swept <= newest, "swept generation " + swept + " is not in 0.." + newest);
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final FifoBloomModel model = model(slots);
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("items-per-generation", Long.toString(perSubfilter(slots[CAPACITY], slots[GENERATIONS])));
        map.put("bits-per-item", String.format(Locale.ROOT, "%.2f", (double)slots[MEMORY] / slots[CAPACITY]));
        map.put("worst-fpr", String.format(Locale.ROOT, "%.6f", model.worstFalsePositiveRate()));
        map.put("layout", slots[BLOCKS_PER_ITEM] == LAYOUT_1_0 ? "1.0 (standard Bloom generations)" :
            "2.0 (blocked: " + blocks(slots) + " blocks of 512 bits per generation)");
        return map;
    }

    /**
     * @param slots resolved parameters of a fifo-bloom filter, either layout.
     * @return its error model.
     */
    public static FifoBloomModel model(final long[] slots)
    {
        return FifoBloomModel.of(slots[MEMORY], (int)slots[HASH_FUNCTIONS], slots[CAPACITY], (int)slots[GENERATIONS],
            (int)slots[BLOCKS_PER_ITEM]);
    }

    private static long perSubfilter(final long capacity, final long generations)
    {
        return (capacity + generations - 1) / generations;
    }

    /** B, blocks per generation of the 2.0 layout. */
    private static long blocks(final long[] slots)
    {
        return slots[MEMORY] / slots[GENERATIONS] / BlockedBloomModel.BLOCK_BITS;
    }

    private static long subfilterBytes(final long[] slots)
    {
        return cacheLines(((slots[MEMORY] / slots[GENERATIONS] + 63) >>> 6) * 8);
    }
}
