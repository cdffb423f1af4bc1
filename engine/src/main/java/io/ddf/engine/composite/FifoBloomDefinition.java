package io.ddf.engine.composite;

import io.ddf.engine.bloom.BloomDefinition;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.model.BlockedBloomModel;
import io.ddf.engine.model.FifoBloomModel;
import io.ddf.engine.spi.CommonParams;
import io.ddf.engine.spi.DurationText;
import io.ddf.engine.spi.FilterClock;
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
    /** Slot of the window of time W in milliseconds: 0 without one (2.0, 1.0), positive in the 2.1 layout. */
    public static final int WINDOW_MILLIS = 6;
    /** Slot of L, the window's slices: a generation turns every W / L or c = ⌈n / L⌉ new items; 2 L generations. */
    public static final int SLICES = 7;
    /** Slot of the time source: {@link #WALL_CLOCK} or {@link #EVENT_TIME}. */
    public static final int TIME_SOURCE = 8;
    /** Time source: a call without a time reads the wall clock, and an open applies the time passed since. */
    public static final long WALL_CLOCK = 0;
    /** Time source: the filter's time is its elements' (a call without one moves nothing; an open applies none). */
    public static final long EVENT_TIME = 1;
    /** Default slices L of a window of time. */
    public static final long DEFAULT_SLICES = 2;
    /** Largest L: 2 L generations, each with a start time in the header's state words. */
    static final long MAX_SLICES = BlockedFifoLayout.MAX_TIMED_GENERATIONS / 2;
    /** Largest window: 2^40 ms, 34 years. */
    static final long MAX_WINDOW_MILLIS = 1L << 40;

    /** Capacity n. */
    public static final ParamDef P_CAPACITY = ParamDef.longOption("capacity",
        "fifo-bloom: items kept before the oldest go (default 10^6).");
    /** Generations L. */
    public static final ParamDef P_GENERATIONS = ParamDef.longOption("generations",
        "fifo-bloom: Bloom subfilters L (default 2).");

    /** Blocks per item d (0 asks for the 1.0 layout). */
    public static final ParamDef P_BLOCKS_PER_ITEM = ParamDef.longOption("blocks-per-item",
        "fifo-bloom: 512-bit blocks per item, 1 or 2; 0 = 1.0 layout.");

    /** Window of time W, in milliseconds. */
    public static final ParamDef P_WINDOW_MILLIS = windowOption("window-ms",
        "fifo-bloom: a window of time, in ms (--window TIME).");
    /** Slices L of the window. */
    public static final ParamDef P_SLICES = windowOption("slices",
        "fifo-bloom, window of time: slices L (default 2).");
    /** Time source. */
    public static final ParamDef P_TIME_SOURCE = windowOption("time-source",
        "fifo-bloom, window of time: 0 wall clock, 1 event time.");

    /** An option shown only by a filter with a window ({@link #describe}): files without one keep zeros there. */
    private static ParamDef windowOption(final String name, final String description)
    {
        return new ParamDef(name, ParamDef.Type.LONG, description, true, false);
    }

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
            CommonParams.HASH_FUNCTIONS, P_BLOCKS_PER_ITEM, P_WINDOW_MILLIS, P_SLICES, P_TIME_SOURCE);
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        final long n = given.getLong(P_CAPACITY.name(), DEFAULT_CAPACITY);
        require(n >= 1 && n <= MAX_CAPACITY, "capacity must be in 1..2^40, got " + n);
        final double fpr = given.getDouble(CommonParams.TARGET_FPR.name(), DEFAULT_TARGET_FPR);
        require(fpr > 0 && fpr < 1, "target-fpr must be in (0, 1), got " + fpr);
        final long d = given.getLong(P_BLOCKS_PER_ITEM.name(), -1);
        require(d >= -1 && d <= BlockedBloomModel.MAX_BLOCKS_PER_ITEM, "blocks-per-item must be 1 or 2 (0 for the " +
            "1.0 layout), got " + d);
        if (given.has(P_WINDOW_MILLIS.name()))
        {
            final long[] slots = resolveWindowed(given, n, fpr, d);
            check(slots);
            return slots;
        }
        require(!given.has(P_SLICES.name()) && !given.has(P_TIME_SOURCE.name()), "slices and time-source go with a " +
            "window of time (window-ms), which fifo-bloom was not given");
        final long l = given.getLong(P_GENERATIONS.name(), DEFAULT_GENERATIONS);
        require(l >= 1 && l <= MAX_GENERATIONS, "generations must be in 1.." + MAX_GENERATIONS + ", got " + l);
        final long[] slots = withoutWindow(d == LAYOUT_1_0 ? resolveStandard(given, n, l, fpr) :
            resolveBlocked(given, n, l, fpr, d));
        check(slots);
        return slots;
    }

    /**
     * The 2.1 layout: blocked generations with a window of time W, in L slices. 2 L generations of c = ⌈n / L⌉ new
     * items, each sized for ε / 2L when full, so that the rate stays under ε whatever comes; the 2 L make the window's
     * promise exact (FORMAT-FIFO-BLOOM.md, "The window's promise").
     */
    private static long[] resolveWindowed(final GivenParameters given, final long n, final double fpr, final long d)
    {
        final long window = given.getLong(P_WINDOW_MILLIS.name(), 0);
        require(window >= 1 && window <= MAX_WINDOW_MILLIS, "window-ms must be in 1..2^40 (34 years), got " + window);
        require(!given.has(P_GENERATIONS.name()), "generations is 2 x slices with a window of time: give slices " +
            "(each a generation of capacity / slices new items, turned every window / slices)");
        require(d != LAYOUT_1_0, "a window of time needs the blocked layout (blocks-per-item 1 or 2), not 0");
        final long slices = given.getLong(P_SLICES.name(), DEFAULT_SLICES);
        require(slices >= 1 && slices <= MAX_SLICES, "slices must be in 1.." + MAX_SLICES + ", got " + slices);
        require(window >= slices, "window-ms " + window + " is shorter than slices " + slices + ": a slice is at " +
            "least 1 ms");
        final long source = given.getLong(P_TIME_SOURCE.name(), WALL_CLOCK);
        require(source == WALL_CLOCK || source == EVENT_TIME, "time-source must be 0 (the wall clock) or 1 (event " +
            "time), got " + source);
        final long c = perSubfilter(n, slices);
        final long[] blocked = resolveBlocked(given, c * 2 * slices, 2 * slices, fpr, d);
        final long[] slots = new long[] {n, 2 * slices, blocked[TARGET_FPR], blocked[MEMORY], blocked[HASH_FUNCTIONS],
            blocked[BLOCKS_PER_ITEM], window, slices, source};
        return slots;
    }

    private static long[] withoutWindow(final long[] sixSlots)
    {
        return java.util.Arrays.copyOf(sixSlots, 9);
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
        require(slots.length == 9, "expected 9 parameters");
        require(slots[CAPACITY] >= 1 && slots[CAPACITY] <= MAX_CAPACITY, "capacity out of range");
        final long l = slots[GENERATIONS];
        require(l >= 1 && l <= MAX_GENERATIONS, "generations out of range");
        checkWindow(slots);
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

    /** A window of time (2.1) or none (2.0 and 1.0, whose files have zeros in these slots). */
    private static void checkWindow(final long[] slots)
    {
        final long window = slots[WINDOW_MILLIS];
        if (window == 0)
        {
            require(slots[SLICES] == 0 && slots[TIME_SOURCE] == 0, "slices and time-source are set without a window");
            return;
        }
        final long slices = slots[SLICES];
        require(window >= 1 && window <= MAX_WINDOW_MILLIS, "window-ms out of range");
        require(slices >= 1 && slices <= MAX_SLICES && window >= slices, "slices out of range");
        require(slots[GENERATIONS] == 2 * slices, "generations must be 2 x slices with a window of time");
        require(slots[BLOCKS_PER_ITEM] != LAYOUT_1_0, "a window of time needs the blocked layout");
        require(slots[TIME_SOURCE] == WALL_CLOCK || slots[TIME_SOURCE] == EVENT_TIME, "time-source must be 0 or 1");
    }

    /** @return whether the slots have a window of time (the 2.1 layout). */
    public static boolean windowed(final long[] slots)
    {
        return slots.length > WINDOW_MILLIS && slots[WINDOW_MILLIS] > 0;
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
        return core(slots, region, headerState, System::currentTimeMillis);
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState,
        final FilterClock wallClock)
    {
        require(headerState != null, "fifo-bloom keeps its rotation in the file header, so it cannot be a subfilter");
        if (windowed(slots))
        {
            return WindowedFifo.of(region, headerState, blocks(slots), (int)slots[HASH_FUNCTIONS],
                (int)slots[BLOCKS_PER_ITEM], perGeneration(slots), slots[WINDOW_MILLIS], (int)slots[SLICES],
                slots[TIME_SOURCE] == EVENT_TIME ? FilterClock.NONE : wallClock);
        }
        if (slots[BLOCKS_PER_ITEM] != LAYOUT_1_0)
        {
            return new BlockedFifoCore(region, headerState, blocks(slots), (int)slots[HASH_FUNCTIONS],
                (int)slots[BLOCKS_PER_ITEM], (int)slots[GENERATIONS], perGeneration(slots));
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
        final long newest = claimed == 0 ? 0 : (claimed - 1) / perGeneration(slots);
        final long ready = headerState.getLongVolatile(BlockedFifoLayout.READY);
        final long swept = headerState.getLongVolatile(BlockedFifoLayout.SWEPT);
        require(ready >= 0 && ready <= newest, "published generation " + ready + " is not in 0.." + newest);
        require(swept >= 0 && swept <= newest, "swept generation " + swept + " is not in 0.." + newest);
        if (windowed(slots))
        {
            final long oldest = headerState.getLongVolatile(BlockedFifoLayout.OLDEST);
            require(oldest >= 0 && oldest <= ready, "oldest answered generation " + oldest + " is not in 0.." + ready);
            final long stale = headerState.getLongVolatile(BlockedFifoLayout.STALE);
            require(slots[GENERATIONS] == Long.SIZE || stale >>> slots[GENERATIONS] == 0, "stale slots " +
                Long.toHexString(stale) + " name a slot past " + (slots[GENERATIONS] - 1));
            final long started = headerState.getLongVolatile(BlockedFifoLayout.STARTED);
            require(started == 0 || started == 1, "started word " + started + " is not 0 or 1");
        }
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final FifoBloomModel model = model(slots);
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("items-per-generation", Long.toString(perGeneration(slots)));
        map.put("bits-per-item", String.format(Locale.ROOT, "%.2f", (double)slots[MEMORY] / slots[CAPACITY]));
        map.put("worst-fpr", String.format(Locale.ROOT, "%.6f", model.worstFalsePositiveRate()));
        if (windowed(slots))
        {
            final long window = slots[WINDOW_MILLIS];
            map.put(P_WINDOW_MILLIS.name(), Long.toString(window));
            map.put(P_SLICES.name(), Long.toString(slots[SLICES]));
            map.put(P_TIME_SOURCE.name(), Long.toString(slots[TIME_SOURCE]));
            map.put("window", DurationText.format(window) + " (" + slots[SLICES] + " slices of " +
                DurationText.format(window / slots[SLICES]) + "; each item remembered at least " +
                DurationText.format(window) + " while at most " + slots[CAPACITY] + " new items come within " +
                DurationText.format(window) + ", forgotten by " + DurationText.format(window + window / slots[SLICES]) +
                ")");
            map.put("time", slots[TIME_SOURCE] == EVENT_TIME ? "event time" : "wall clock");
        }
        map.put("layout", slots[BLOCKS_PER_ITEM] == LAYOUT_1_0 ? "1.0 (standard Bloom generations)" :
            (windowed(slots) ? "2.1 (blocked, window of time: " : "2.0 (blocked: ") + blocks(slots) +
            " blocks of 512 bits per generation)");
        return map;
    }

    /**
     * @param slots resolved parameters of a fifo-bloom filter, either layout.
     * @return its error model.
     */
    public static FifoBloomModel model(final long[] slots)
    {
        if (windowed(slots))
        {
            return FifoBloomModel.of(slots[MEMORY], (int)slots[HASH_FUNCTIONS], perGeneration(slots) *
                slots[GENERATIONS], (int)slots[GENERATIONS], (int)slots[BLOCKS_PER_ITEM]);
        }
        return FifoBloomModel.of(slots[MEMORY], (int)slots[HASH_FUNCTIONS], slots[CAPACITY], (int)slots[GENERATIONS],
            (int)slots[BLOCKS_PER_ITEM]);
    }

    /** @return c, new items per generation: ⌈n / L⌉, L the generations, or with a window of time its slices. */
    static long perGeneration(final long[] slots)
    {
        return perSubfilter(slots[CAPACITY], windowed(slots) ? slots[SLICES] : slots[GENERATIONS]);
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
