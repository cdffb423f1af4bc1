package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.CommonParams;
import io.ddf.engine.spi.DurationText;
import io.ddf.engine.spi.FilterClock;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.engine.spi.KindCodes;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.ParamDef;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code aged-cuckoo}: a window of time whose memory follows the live elements (issue 29). One cuckoo table of
 * buckets of eight 16-bit slots in two adjacent words (one cache line; files made before bucket-words have one word
 * of four), each slot an f-bit fingerprint and an a-bit stamp of its generation (f + a = 16); a
 * generation turns every W / L or c = ⌈n / L⌉ new elements, and an entry is live while its generation is current or
 * ended less than W ago ({@link AgedCuckooCore}, FORMAT-AGED-CUCKOO.md). The promise is fifo-bloom's with a window:
 * an element added at t answers DUPLICATE until at least t + W while at most n new elements come within any W, and
 * is forgotten by t + W + W / L.
 *
 * <p>Sizing. Live entries are at most n (1 + 1 / L) under the promise: all but the generation spanning the instant
 * now − W arrived within the last W (at most n), and that one holds at most n / L. The table gets n (1 + 1 / L) /
 * {@link #MAX_LOAD} slots, with either layout; its false positive
 * rate is at most 1 − (1 − 2^-f)^(2·b·load) for b slots a bucket (a lookup compares 2 b slots), so f is the least
 * width that keeps it under ε at that load, and a = 16 − f. Stamps: at most 2 L + 1 generations are live under the
 * promise, and a turn must find its stamp's old generation expired and swept: S = 2^a − 1 ≥ 2 L + 3 (the two spare
 * stamps give the sweep at least two generations after an expiry). An ε needing f &gt; 13 leaves 3 stamp bits, 7
 * stamps, L ≤ 2; f &gt; 13 is refused: 16-bit slots cannot hold the stamps (32-bit slots would cost twice the
 * memory, more than fifo-bloom's window at those rates).
 *
 * <p>Layout (bucket-words). Eight slots a bucket: at load 0.95 an insertion into 2 × 8 slots rarely relocates (the
 * threshold of b = 8 is about 0.98), so it costs about its two buckets' cache lines, where four slots relocate on most
 * insertions, a cache miss a step. The eight slots need about one more fingerprint bit for the same ε (at 1 %: f = 11,
 * 31 stamps, L ≤ 14), so when not given the layout is two words unless the fingerprint would not fit (ε below about
 * 0.19 %) or the slices given need more stamps than it leaves; then one word, as before. Files made before this
 * parameter hold 0 in its slot: one word a bucket.
 *
 * <p>Slots: capacity n, window-ms W, slices L, time-source, target-fpr ε (double bits), memory-bits (the table's
 * words × 64; a given memory-bits covers the 96 state words too, the table getting the rest in whole buckets),
 * fingerprint-bits f, max-kicks, bucket-words (2: two words a bucket; 0: one).
 */
public final class AgedCuckooDefinition extends KindDefinition
{
    /**
     * Default slices L, or the most the stamps allow when fewer (a fingerprint of f bits leaves 16 − f stamp bits: at
     * 0.1 %, 13 bits of fingerprint, 7 stamps, L = 2), so that a target error alone always makes a filter.
     */
    public static final long DEFAULT_SLICES = 16;
    /** Default target false positive rate. */
    public static final double DEFAULT_TARGET_FPR = 0.01;
    /** Default relocations per insertion (Fan et al.'s 500: an insert failure loses an element inside its window). */
    static final long DEFAULT_MAX_KICKS = 500;
    /**
     * Largest load the sizing plans for, in either layout: what four-slot buckets sustain with 500 kicks without
     * insert failures. Eight-slot buckets keep it too: relocations are not rare there (an insertion finds both
     * buckets full about one time in three at the peak of the window's churn: 0.32 kicks an insertion at 0.95, 0.41 at
     * 0.97, 0.48 at 0.98, one run of 10^6 a window with an 8-step lookahead beside both buckets; 0.34 at 0.95 with the
     * lookahead kept, 8 M a window; 1.02 with four slots), so a higher load would buy 2-3 % of memory with more of
     * them.
     */
    public static final double MAX_LOAD = 0.95;
    /** bucket-words of the one-word layout (files made before the parameter hold it: 0). */
    static final long ONE_WORD = 0;
    /** bucket-words of the two-word layout. */
    static final long TWO_WORDS = 2;
    /** Largest fingerprint: 3 stamp bits left. */
    static final int MAX_FINGERPRINT_BITS = 13;
    static final long MAX_CAPACITY = 1L << 40;
    static final long MAX_WINDOW_MILLIS = 1L << 40;
    static final long MAX_BUCKETS = 1L << 37;
    static final long MAX_KICKS = 1 << 20;

    static final int CAPACITY = 0;
    static final int WINDOW_MILLIS = 1;
    static final int SLICES = 2;
    static final int TIME_SOURCE = 3;
    static final int TARGET_FPR = 4;
    static final int MEMORY = 5;
    static final int FINGERPRINT = 6;
    static final int KICKS = 7;
    static final int BUCKET_WORDS = 8;

    private static final ParamDef P_CAPACITY = ParamDef.longOption("capacity",
        "aged-cuckoo: new elements that may come within a window (default 10^6).");
    private static final ParamDef P_WINDOW = ParamDef.longOption("window-ms", "aged-cuckoo: the window W, in ms.");
    private static final ParamDef P_SLICES = ParamDef.longOption("slices",
        "aged-cuckoo: slices L (default 16): a generation per W / L or n / L new elements.");
    private static final ParamDef P_TIME_SOURCE = ParamDef.longOption("time-source",
        "aged-cuckoo: 0 wall clock, 1 event time.");
    private static final ParamDef P_MAX_KICKS = ParamDef.longOption("max-kicks",
        "aged-cuckoo: relocations per insertion (default 500).");
    private static final ParamDef P_BUCKET_WORDS = ParamDef.longOption("bucket-words",
        "aged-cuckoo: 2, eight-slot buckets (default); 0, four (older files).");
    private static final List<ParamDef> PARAMS = List.of(P_CAPACITY, P_WINDOW, P_SLICES, P_TIME_SOURCE,
        CommonParams.TARGET_FPR, CommonParams.MEMORY_BITS, CommonParams.FINGERPRINT_BITS, P_MAX_KICKS,
        P_BUCKET_WORDS);

    /** The definition. */
    public AgedCuckooDefinition()
    {
    }

    @Override
    public int code()
    {
        return KindCodes.AGED_CUCKOO;
    }

    @Override
    public List<ParamDef> params()
    {
        return PARAMS;
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        final long n = given.getLong(P_CAPACITY.name(), FifoBloomDefinition.DEFAULT_CAPACITY);
        require(n >= 1 && n <= MAX_CAPACITY, "capacity must be in 1..2^40, got " + n);
        require(given.has(P_WINDOW.name()), "aged-cuckoo needs a window of time: window-ms");
        final long window = given.getLong(P_WINDOW.name(), 0);
        require(window >= 1 && window <= MAX_WINDOW_MILLIS, "window-ms must be in 1..2^40 (34 years), got " + window);
        final long source = given.getLong(P_TIME_SOURCE.name(), FifoBloomDefinition.WALL_CLOCK);
        require(source == FifoBloomDefinition.WALL_CLOCK || source == FifoBloomDefinition.EVENT_TIME,
            "time-source must be 0 (the wall clock) or 1 (event time), got " + source);
        final double fpr = given.getDouble(CommonParams.TARGET_FPR.name(), DEFAULT_TARGET_FPR);
        require(fpr > 0 && fpr < 1, "target-fpr must be in (0, 1), got " + fpr);
        final long words = given.has(P_BUCKET_WORDS.name()) ? given.getLong(P_BUCKET_WORDS.name(), TWO_WORDS) :
            defaultBucketWords(given, fpr);
        require(words == ONE_WORD || words == TWO_WORDS, "bucket-words must be 2 (eight slots in two words) or 0 " +
            "(four in one), got " + words);
        final long f = given.has(CommonParams.FINGERPRINT_BITS.name()) ?
            given.getLong(CommonParams.FINGERPRINT_BITS.name(), 0) : fingerprintBitsFor(fpr, words);
        require(f >= 1 && f <= MAX_FINGERPRINT_BITS, "aged-cuckoo's 16-bit slots hold at most " +
            MAX_FINGERPRINT_BITS + " fingerprint bits (3 for the stamp); target-fpr " + fpr + " needs " + f +
            ": raise target-fpr to at least " + String.format(Locale.ROOT, "%.5f", worstFpr(MAX_FINGERPRINT_BITS,
            MAX_LOAD, words)) + (words == TWO_WORDS ? ", or give bucket-words 0" :
            ", or use fifo-bloom's window"));
        final int stamps = AgedLayout.stamps(AgedLayout.SLOT_BITS - (int)f);
        final long l = given.has(P_SLICES.name()) ? given.getLong(P_SLICES.name(), DEFAULT_SLICES) :
            Math.max(1, Math.min(DEFAULT_SLICES, Math.min(window, (stamps - 3) / 2)));
        require(l >= 1 && window >= l, "slices must be in 1..window-ms (a slice is at least 1 ms), got " + l);
        require(2 * l + 3 <= stamps, "slices " + l + " need 2 x slices + 3 = " + (2 * l + 3) + " stamps, and " + f +
            " fingerprint bits leave " + (AgedLayout.SLOT_BITS - f) + " stamp bits, " + stamps + " stamps: give " +
            "slices at most " + (stamps - 3) / 2 + ", or a larger target-fpr");
        final long kicks = given.getLong(P_MAX_KICKS.name(), DEFAULT_MAX_KICKS);
        require(kicks >= 0 && kicks <= MAX_KICKS, "max-kicks must be in 0.." + MAX_KICKS + ", got " + kicks);
        final long least = leastBuckets(n, l, words);
        final long perBucket = wordsOf(words) * (long)Long.SIZE;
        final long buckets;
        if (given.has(CommonParams.MEMORY_BITS.name()))
        {
            // the memory holds the state and end-time words too: the table gets the rest, in whole buckets
            final long memory = given.getLong(CommonParams.MEMORY_BITS.name(), 0);
            buckets = (memory - AgedLayout.TABLE * (long)Long.SIZE) / perBucket;
            require(buckets >= least, "memory-bits " + memory + " is too small for the promise: capacity " + n +
                " with " + l + " slices keeps up to " + liveBound(n, l) + " live elements, which need at least " +
                (least * perBucket + AgedLayout.TABLE * (long)Long.SIZE) + " bits (" + least + " buckets at load " +
                MAX_LOAD + ", and " + AgedLayout.TABLE + " words of state)");
        }
        else
        {
            buckets = least;
        }
        require(buckets * wordsOf(words) <= MAX_BUCKETS, "the table would need more than 2^37 words (1 TiB)");
        final long[] slots = {n, window, l, source, Double.doubleToLongBits(fpr), buckets * perBucket, f, kicks,
            words};
        check(slots);
        return slots;
    }

    /**
     * Two words a bucket unless the fingerprint they need (one bit more for the same ε) leaves too few stamps: more
     * than 13 bits, or fewer stamps than the slices given need; one word then, as the files made before.
     */
    private static long defaultBucketWords(final GivenParameters given, final double fpr)
    {
        final long f = given.has(CommonParams.FINGERPRINT_BITS.name()) ?
            given.getLong(CommonParams.FINGERPRINT_BITS.name(), 0) : fingerprintBitsFor(fpr, TWO_WORDS);
        if (f > MAX_FINGERPRINT_BITS)
        {
            return ONE_WORD;
        }
        final int stamps = AgedLayout.stamps(AgedLayout.SLOT_BITS - (int)Math.max(1, f));
        return !given.has(P_SLICES.name()) || 2 * given.getLong(P_SLICES.name(), DEFAULT_SLICES) + 3 <= stamps ?
            TWO_WORDS : ONE_WORD;
    }

    /** @return words per bucket of a bucket-words slot: 1 for {@link #ONE_WORD}, else 2. */
    static int wordsOf(final long bucketWords)
    {
        return bucketWords == ONE_WORD ? 1 : 2;
    }

    /** @return the least f whose worst false positive rate in the layout at {@link #MAX_LOAD} is at most ε. */
    static long fingerprintBitsFor(final double fpr, final long bucketWords)
    {
        int f = 1;
        while (f < AgedLayout.SLOT_BITS && worstFpr(f, MAX_LOAD, bucketWords) > fpr)
        {
            f++;
        }
        return f;
    }

    /**
     * @param f           fingerprint bits.
     * @param load        live entries per slot.
     * @param bucketWords the layout.
     * @return the false positive rate of a lookup: one of the 2·b·load live entries of its two buckets matching.
     */
    static double worstFpr(final long f, final double load, final long bucketWords)
    {
        final int slots = AgedLayout.WORD_SLOTS * wordsOf(bucketWords);
        return 1 - Math.pow(1 - Math.pow(2, -f), 2 * slots * load);
    }

    /** @return c = ⌈n / L⌉, the new elements per generation. */
    static long perGeneration(final long n, final long l)
    {
        return (n + l - 1) / l;
    }

    /** @return the most live entries under the promise: n + c (a turn by time leaves a generation c − 1 tickets). */
    static long liveBound(final long n, final long l)
    {
        return n + perGeneration(n, l);
    }

    /** @return buckets of the layout holding {@link #liveBound} entries at {@link #MAX_LOAD}. */
    static long leastBuckets(final long n, final long l, final long bucketWords)
    {
        return Math.max(1, (long)Math.ceil(liveBound(n, l) / (MAX_LOAD * AgedLayout.WORD_SLOTS *
            wordsOf(bucketWords))));
    }

    @Override
    public void check(final long[] slots)
    {
        require(slots.length == PARAMS.size(), "expected " + PARAMS.size() + " parameters");
        require(slots[CAPACITY] >= 1 && slots[CAPACITY] <= MAX_CAPACITY, "capacity out of range");
        require(slots[WINDOW_MILLIS] >= 1 && slots[WINDOW_MILLIS] <= MAX_WINDOW_MILLIS, "window-ms out of range");
        require(slots[SLICES] >= 1 && slots[SLICES] <= slots[WINDOW_MILLIS], "slices out of range");
        require(slots[TIME_SOURCE] == FifoBloomDefinition.WALL_CLOCK ||
            slots[TIME_SOURCE] == FifoBloomDefinition.EVENT_TIME, "time-source must be 0 or 1");
        final double fpr = Double.longBitsToDouble(slots[TARGET_FPR]);
        require(fpr > 0 && fpr < 1, "target-fpr out of range");
        require(slots[FINGERPRINT] >= 1 && slots[FINGERPRINT] <= MAX_FINGERPRINT_BITS, "fingerprint-bits out of range");
        require(2 * slots[SLICES] + 3 <= AgedLayout.stamps(AgedLayout.SLOT_BITS - (int)slots[FINGERPRINT]),
            "slices too many for the stamps");
        require(slots[BUCKET_WORDS] == ONE_WORD || slots[BUCKET_WORDS] == TWO_WORDS, "bucket-words must be 0 or 2");
        final long perBucket = wordsOf(slots[BUCKET_WORDS]) * (long)Long.SIZE;
        require(slots[MEMORY] % perBucket == 0 && slots[MEMORY] / Long.SIZE >= 1 &&
            slots[MEMORY] / Long.SIZE <= MAX_BUCKETS, "memory-bits must be 1..2^37 words of 64 bits, whole buckets");
        require(slots[KICKS] >= 0 && slots[KICKS] <= MAX_KICKS, "max-kicks out of range");
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return layout(slots).regionBytes();
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
        return new AgedCuckooCore(layout(slots), region, slots[CAPACITY], perGeneration(slots[CAPACITY],
            slots[SLICES]), (int)slots[KICKS], slots[WINDOW_MILLIS], (int)slots[SLICES],
            slots[TIME_SOURCE] == FifoBloomDefinition.EVENT_TIME ? FilterClock.NONE : wallClock);
    }

    /** See {@link AgedLayout#check}. */
    @Override
    public void checkStructure(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        layout(slots).check(region);
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final AgedLayout layout = layout(slots);
        final long n = slots[CAPACITY];
        final long l = slots[SLICES];
        final long window = slots[WINDOW_MILLIS];
        final double load = (double)liveBound(n, l) / (layout.buckets() * layout.slots());
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("buckets", Long.toString(layout.buckets()));
        map.put("slots", Long.toString(layout.buckets() * layout.slots()));
        map.put("slots-per-bucket", Integer.toString(layout.slots()));
        map.put("stamp-bits", Integer.toString(layout.stampBits()));
        map.put("stamps", Integer.toString(layout.stamps()));
        map.put("items-per-generation", Long.toString(perGeneration(n, l)));
        map.put("bits-per-item", String.format(Locale.ROOT, "%.2f", (double)slots[MEMORY] / n));
        map.put("load-at-capacity", String.format(Locale.ROOT, "%.3f", load));
        map.put("worst-fpr", String.format(Locale.ROOT, "%.6f", worstFpr(slots[FINGERPRINT], load,
            slots[BUCKET_WORDS])));
        map.put("window", DurationText.format(window) + " (" + l + " slices of " + DurationText.format(window / l) +
            "; each item remembered at least " + DurationText.format(window) + " while at most " + n +
            " new items come within " + DurationText.format(window) + ", forgotten by " +
            DurationText.format(window + window / l) + ")");
        map.put("time", slots[TIME_SOURCE] == FifoBloomDefinition.EVENT_TIME ? "event time" : "wall clock");
        return map;
    }

    static AgedLayout layout(final long[] slots)
    {
        final int words = wordsOf(slots[BUCKET_WORDS]);
        return new AgedLayout(slots[MEMORY] / Long.SIZE / words, (int)slots[FINGERPRINT], words);
    }
}
