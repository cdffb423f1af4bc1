package io.ddf.engine.model;

/**
 * The false positive rate of a blocked Bloom layer ({@code bloom/BlockedBloom}) and the sizing that keeps a
 * capacity and an error rate: the exact mixture over the items per block, not Bloom's formula, which a blocked
 * filter does not follow (its blocks are unevenly loaded: Putze, Sanders and Singler 2007).
 *
 * <p>The layer: B blocks of 512 bits (8 words of 64); an item picks d blocks (1 or 2) and puts k/d bits in each,
 * bit i in word (r + i) mod 8 of the block (r a random rotation, so that the 8 words are loaded evenly and an item's
 * first 8 bits fall in 8 different words), at a uniform position in the word. With j items in a block, word w has
 * received T_w = ⌊k_b/8⌋·j + Binomial(j, (k_b mod 8)/8) uniform throws, and a query with q bits in that word finds
 * them all set with probability E[(S_T/64)^q], S_T the bits set after T throws (computed exactly, throw by throw).
 * The words are taken as independent given j (they are, but for the shared rotation: measured FPR within 2 % of the
 * model, {@code BlockedBloomSizingTest}); the items per block are Binomial(d·n, 1/B).
 *
 * <p>Sizing keeps the promise for one filter, not only on average: the rate of one filter is the mean over its
 * blocks, which varies from filter to filter by σ ≈ sd(f(j)) / √B (for d = 2, 2μ times that), large for a filter of a
 * few blocks. The least B with μ + {@value #SPREAD_SIGMAS}σ ≤ {@value #MARGIN}·ε is taken: a filter exceeds 0.95 ε
 * with probability under 0.2 %, and the last 5 % holds the model's approximations and a test's binomial noise.
 * For each d the best k is searched; two blocks per item (two cache lines) are used only when one block would take
 * more than {@value #MEMORY_LIMIT} × RedisBloom's bits for the same items and rate, and two take less: from ε ≈
 * 10^-3 down for large layers ({@code BlockedBloomSizingTest} prints the table).
 */
public final class BlockedBloomModel
{
    /** Bits per block: one 64-byte cache line. */
    public static final int BLOCK_BITS = 512;
    /** Words per block. */
    public static final int BLOCK_WORDS = 8;
    /** Most bits an item sets in one block: one mixed 64-bit word gives the rotation and 10 positions. */
    public static final int MAX_BITS_PER_BLOCK = 10;
    /** Most blocks per item. */
    public static final int MAX_BLOCKS_PER_ITEM = 2;
    /** The sizing aims the expected rate plus the spread at this fraction of ε (see the class comment). */
    public static final double MARGIN = 0.95;
    /** Standard deviations of the filter-to-filter spread kept below the target. */
    public static final double SPREAD_SIGMAS = 3;
    /** Memory, as a multiple of RedisBloom's for the same items and rate, up to which one block per item is kept. */
    public static final double MEMORY_LIMIT = 1.1;
    /** Largest number of blocks of one layer: 2^43 bits. */
    public static final long MAX_BLOCKS = 1L << 34;

    private static final int WORD_BITS = 64;
    /** E[(S_T/64)^q] by q (1 or 2 bits of a query in one word), shared by every model: see Moments. */
    private static final java.util.concurrent.atomic.AtomicReferenceArray<double[]> MOMENTS =
        new java.util.concurrent.atomic.AtomicReferenceArray<>(3);
    /** f(j) by k/d: see blockRates. */
    private static final java.util.concurrent.atomic.AtomicReferenceArray<double[]> BLOCK_RATES =
        new java.util.concurrent.atomic.AtomicReferenceArray<>(MAX_BITS_PER_BLOCK + 1);
    /** Most items per block whose rate is computed: 2^14 items of one bit fill 512 bits to within e^-32. */
    private static final int MAX_ITEMS = 1 << 14;
    /** Longest moment table: past 2^16 throws a word is full (E = 1 to double precision long before). */
    private static final int MAX_THROWS = 1 << 16;

    private final long blocks;
    private final int hashFunctions;
    private final int blocksPerItem;

    /**
     * @param blocks        B, at least 1.
     * @param hashFunctions k, a multiple of d, k/d in 1..{@value #MAX_BITS_PER_BLOCK}.
     * @param blocksPerItem d, 1 or 2.
     */
    public BlockedBloomModel(final long blocks, final int hashFunctions, final int blocksPerItem)
    {
        if (blocks < 1 || blocksPerItem < 1 || blocksPerItem > MAX_BLOCKS_PER_ITEM || hashFunctions % blocksPerItem != 0 ||
            hashFunctions / blocksPerItem < 1 || hashFunctions / blocksPerItem > MAX_BITS_PER_BLOCK)
        {
            throw new IllegalArgumentException("no blocked layer of " + blocks + " blocks, k = " + hashFunctions +
                ", " + blocksPerItem + " blocks per item");
        }
        this.blocks = blocks;
        this.hashFunctions = hashFunctions;
        this.blocksPerItem = blocksPerItem;
    }

    /** @return B. */
    public long blocks()
    {
        return blocks;
    }

    /** @return k, bits per item over all its blocks. */
    public int hashFunctions()
    {
        return hashFunctions;
    }

    /** @return d. */
    public int blocksPerItem()
    {
        return blocksPerItem;
    }

    /** @return the layer's bits, B · 512. */
    public long bits()
    {
        return blocks * BLOCK_BITS;
    }

    /**
     * The expected false positive rate after r insertions: an item is inserted only when it is not already present,
     * and the ones refused set no bit, so the layer's bits are those of x(r) ≥ r items thrown, dx/dr = 1/(1 − p(x))
     * ({@link InsertedLoad}'s argument; at 4 bits per item the rate in r is 10 % low). Integrated by 8 midpoint steps.
     *
     * @param inserted r, items inserted.
     * @return the expected false positive rate of such a layer after r insertions.
     */
    public double fpr(final long inserted)
    {
        return inserted <= 0 ? 0 : thrown(offered(inserted, 8));
    }

    /** x(r) by midpoint steps of dx/dr = 1 / (1 − p(x)). */
    private double offered(final long inserted, final int steps)
    {
        final double h = (double)inserted / steps;
        double x = 0;
        for (int i = 0; i < steps; i++)
        {
            x = step(x, h);
        }
        return x;
    }

    /** One midpoint step of dx/dr = 1 / (1 − p(x)), the slope bounded where the layer is nearly saturated. */
    private double step(final double x, final double h)
    {
        final double half = x + h / 2 / (1 - Math.min(0.99, thrown(x)));
        return x + h / (1 - Math.min(0.99, thrown(half)));
    }

    /**
     * {@link #fpr(long)} for r = j·c / grid, j = 0..grid, integrated along the grid (the tuner interpolates in it).
     *
     * @param perLayer c.
     * @param grid     steps.
     * @return grid + 1 rates.
     */
    public double[] fprTable(final long perLayer, final int grid)
    {
        final double[] table = new double[grid + 1];
        final double h = (double)perLayer / grid;
        double x = 0;
        for (int j = 0; j <= grid; j++)
        {
            table[j] = thrown(x);
            x = step(x, h);
        }
        return table;
    }

    /** The rate after x items thrown (each sets its bits whether or not they were set). */
    private double thrown(final double items)
    {
        return rate(Math.round(items))[0];
    }

    /**
     * @param items n, items thrown.
     * @return {expected rate μ, filter-to-filter standard deviation σ}.
     */
    double[] rate(final long items)
    {
        if (items <= 0)
        {
            return new double[] {0, 0};
        }
        final int perBlock = hashFunctions / blocksPerItem;
        final long throwsTotal = items * blocksPerItem;
        final double[] weights = binomial(throwsTotal, 1.0 / blocks);
        final int from = (int)Math.round(weights[weights.length - 1]);
        final double[] rates = blockRates(perBlock, from + weights.length - 2);
        double m1 = 0;
        double m2 = 0;
        for (int i = 0; i < weights.length - 1; i++)
        {
            if (weights[i] > 0)
            {
                final double f = rates[Math.min(from + i, rates.length - 1)];
                m1 += weights[i] * f;
                m2 += weights[i] * f * f;
            }
        }
        final double spread = Math.sqrt(Math.max(0, m2 - m1 * m1) / blocks);
        return blocksPerItem == 1 ? new double[] {m1, spread} : new double[] {m1 * m1, 2 * m1 * spread};
    }

    /**
     * The least layer (B, k, d) whose false positive rate, after {@code items} insertions, stays at most
     * {@code target} for one filter with the margins of the class comment; {@code filters} layers queried together
     * (a fifo-bloom's generations, each holding {@code items}) share the target: their union's rate is about the sum.
     *
     * @param items   n per layer, at least 1.
     * @param target  ε in (0, 1).
     * @param filters how many such layers a query consults, at least 1.
     * @param minK    the least k (fifo-bloom needs 2, see {@link FifoBloomModel#MIN_HASH_FUNCTIONS}).
     * @return the layer.
     */
    public static BlockedBloomModel size(final long items, final double target, final int filters, final int minK)
    {
        if (items < 1 || !(target > 0 && target < 1) || filters < 1)
        {
            throw new IllegalArgumentException("cannot size a blocked layer for " + items + " items at " + target);
        }
        final BlockedBloomModel one = best(items, target, filters, minK, 1);
        final BlockedBloomModel two = best(items, target, filters, minK, 2);
        if (one == null && two == null)
        {
            throw new IllegalArgumentException("no blocked layer of at most 2^43 bits holds " + items + " items at a " +
                "false positive rate of " + target);
        }
        if (one == null)
        {
            return two;
        }
        // one cache line per item unless that costs more than 1.1 x RedisBloom's memory and two lines cost less
        final boolean oneIsLean = one.bits() <= MEMORY_LIMIT * redisBloomBits(items, target / filters);
        return two != null && two.blocks < one.blocks && !oneIsLean ? two : one;
    }

    /**
     * @param perGeneration c.
     * @param fpr           ε, for all L generations together.
     * @param generations   L.
     * @param blocksPerItem d, or −1 for the sizing's choice.
     * @return the least blocked layer per generation keeping the worst instant (L full generations) under ε.
     */
    public static BlockedBloomModel generationLayer(final long perGeneration, final double fpr, final int generations,
        final int blocksPerItem)
    {
        final BlockedBloomModel best = size(perGeneration, fpr, generations,
            FifoBloomModel.MIN_HASH_FUNCTIONS);
        if (blocksPerItem < 0 || best.blocksPerItem() == blocksPerItem)
        {
            return best;
        }
        final BlockedBloomModel forced = best(perGeneration, fpr, generations, FifoBloomModel.MIN_HASH_FUNCTIONS,
            blocksPerItem);
        if (forced == null)
        {
            throw new IllegalArgumentException("no blocked generation with " + blocksPerItem + " blocks per item holds " +
                perGeneration + " items at " + fpr);
        }
        return forced;
    }

    /**
     * @param blocks B per generation.
     * @param d      blocks per item.
     * @param c      items per generation.
     * @return the k (≥ 2, a multiple of d) of least rate for c items in B blocks.
     */
    public static int bestHashFunctions(final long blocks, final int d, final long c)
    {
        int best = Math.max(FifoBloomModel.MIN_HASH_FUNCTIONS, d);
        double bestRate = 2;
        for (int k = best; k <= d * MAX_BITS_PER_BLOCK; k += d)
        {
            if (k % d == 0)
            {
                final double rate = new BlockedBloomModel(blocks, k, d).fpr(c);
                if (rate < bestRate)
                {
                    best = k;
                    bestRate = rate;
                }
            }
        }
        return best;
    }

    /**
     * {@link #size(long, double, int, int)} with d given.
     *
     * @param items         n per layer, at least 1.
     * @param target        ε in (0, 1).
     * @param filters       layers a query consults.
     * @param minK          the least k.
     * @param blocksPerItem d, 1 or 2.
     * @return the least layer of that d, or null when none of at most 2^43 bits keeps the target.
     */
    public static BlockedBloomModel size(final long items, final double target, final int filters, final int minK,
        final int blocksPerItem)
    {
        return best(items, target, filters, minK, blocksPerItem);
    }

    /**
     * @param items n, at least 1.
     * @param target ε in (0, 1).
     * @return {@link #size(long, double, int, int)} of one layer with k ≥ 1: RedisBloom's BF.RESERVE of one layer.
     */
    public static BlockedBloomModel size(final long items, final double target)
    {
        return size(items, target, 1, 1);
    }

    /** Whether the layer keeps the target for one filter: μ·L + 3σ·√L ≤ 0.95 ε, after {@code items} insertions. */
    boolean keeps(final long items, final double target, final int filters)
    {
        // x(r) in 3 midpoint steps: within a fraction of a percent of the 8 of fpr(), at a third of the cost
        final double[] r = rate(Math.round(offered(items, 3)));
        return filters * r[0] + SPREAD_SIGMAS * Math.sqrt(filters) * r[1] <= MARGIN * target;
    }

    private static BlockedBloomModel best(final long items, final double target, final int filters, final int minK,
        final int d)
    {
        final double ln2 = Math.log(2);
        // Bloom's formula is a lower bound for the blocked layer: no B below it can keep the target
        final double leastBits = -items * Math.log(target / filters) / (ln2 * ln2);
        final long low = Math.max(1, (long)Math.floor(leastBits / BLOCK_BITS));
        BlockedBloomModel best = null;
        for (int kb = 1; kb <= MAX_BITS_PER_BLOCK; kb++)
        {
            final int k = kb * d;
            if (k < minK)
            {
                continue;
            }
            final long blocks = leastBlocks(items, target, filters, k, d, low, best == null ? MAX_BLOCKS : best.blocks);
            if (blocks > 0 && (best == null || blocks < best.blocks))
            {
                best = new BlockedBloomModel(blocks, k, d);
            }
        }
        return best;
    }

    /** The least B in [low, high] keeping the target, or −1 when even high does not. */
    private static long leastBlocks(final long items, final double target, final int filters, final int k,
        final int d, final long low, final long high)
    {
        if (!new BlockedBloomModel(high, k, d).keeps(items, target, filters))
        {
            return -1;
        }
        long bad = low - 1;
        long good = high;
        // gallop up from the lower bound first: the answer is within a few times of it
        long step = Math.max(1, low / 8);
        while (bad + step < good && !new BlockedBloomModel(bad + step, k, d).keeps(items, target, filters))
        {
            bad += step;
            step *= 2;
        }
        good = Math.min(good, bad + step);
        while (good - bad > 1)
        {
            final long mid = bad + (good - bad) / 2;
            if (new BlockedBloomModel(mid, k, d).keeps(items, target, filters))
            {
                good = mid;
            }
            else
            {
                bad = mid;
            }
        }
        return good;
    }

    /**
     * A block's rate f(j) with j items, for j = 0.. at least {@code maxItems} (fewer past {@value #MAX_ITEMS}, where
     * f is 1 to double precision): f depends on k/d and j only, so it is computed once per JVM and kept.
     */
    private static double[] blockRates(final int perBlock, final int maxItems)
    {
        final double[] cached = BLOCK_RATES.get(perBlock);
        final int wanted = Math.min(maxItems, MAX_ITEMS);
        if (cached != null && cached.length > wanted)
        {
            return cached;
        }
        synchronized (BLOCK_RATES)
        {
            final int length = Math.min(MAX_ITEMS + 1, Math.max(wanted + 1, cached == null ? 512 : 2 * cached.length));
            final Moments moments = new Moments(perBlock, length - 1);
            final double[] out = new double[length];
            for (int j = 0; j < length; j++)
            {
                out[j] = j < (cached == null ? 0 : cached.length) ? cached[j] : moments.blockRate(j);
            }
            BLOCK_RATES.set(perBlock, out);
            return out;
        }
    }

    /**
     * Binomial(n, p) probabilities over the range that holds all but a negligible mass (mean ± 12 sd + 30), computed
     * from the mode outwards and normalised, so that nothing underflows however large n is.
     *
     * @return the probabilities of j = from, from + 1, ..., then {@code from} itself as the last entry.
     */
    static double[] binomial(final long n, final double p)
    {
        if (p >= 1)
        {
            return new double[] {1, n};
        }
        final double mean = n * p;
        final double sd = Math.sqrt(mean * (1 - p));
        final long from = Math.max(0, (long)Math.floor(mean - 12 * sd - 30));
        final long to = Math.min(n, (long)Math.ceil(mean + 12 * sd + 30));
        final int size = (int)(to - from + 1);
        final double[] w = new double[size + 1];
        final long mode = Math.min(to, Math.max(from, (long)Math.floor((n + 1) * p)));
        final double odds = p / (1 - p);
        w[(int)(mode - from)] = 1;
        for (long j = mode; j < to; j++)
        {
            w[(int)(j + 1 - from)] = w[(int)(j - from)] * (n - j) / (j + 1) * odds;
        }
        for (long j = mode; j > from; j--)
        {
            w[(int)(j - 1 - from)] = w[(int)(j - from)] * j / ((n - j + 1) * odds);
        }
        double sum = 0;
        for (int i = 0; i < size; i++)
        {
            sum += w[i];
        }
        for (int i = 0; i < size; i++)
        {
            w[i] /= sum;
        }
        w[size] = from;
        return w;
    }

    /**
     * RedisBloom's bits for one layer of n items at ε: n·(−ln ε)/ln²2, the reference of the memory promise.
     *
     * @param items  n.
     * @param target ε.
     * @return the bits RedisBloom 2.4 reserves (its BF.INFO Size is these bits / 8 plus a small header).
     */
    public static double redisBloomBits(final long items, final double target)
    {
        final double ln2 = Math.log(2);
        return -items * Math.log(target) / (ln2 * ln2);
    }

    /**
     * E[(S_T/64)^q] tables for the two q of a block's words, and a block's rate with j items in it.
     */
    private static final class Moments
    {
        private final int base;
        private final int extra;
        private final double[] low;
        private final double[] high;

        Moments(final int perBlock, final int maxItems)
        {
            base = perBlock / BLOCK_WORDS;
            extra = perBlock % BLOCK_WORDS;
            final int maxThrows = (base + 1) * maxItems;
            low = base == 0 ? null : moments(base, maxThrows);
            high = extra == 0 ? null : moments(base + 1, maxThrows);
        }

        /** A table's entry, the last one for more throws than it holds (a full word by then). */
        private static double at(final double[] table, final int throwsCount)
        {
            return table[Math.min(throwsCount, table.length - 1)];
        }

        /** FPR of a block holding j items: E_hi^extra · E_lo^(8 − extra). */
        double blockRate(final int j)
        {
            double hi = 1;
            double lo = 1;
            if (extra == 0)
            {
                lo = at(low, base * j);
            }
            else
            {
                // T = base·j + Binomial(j, extra/8)
                final double[] w = binomial(j, (double)extra / BLOCK_WORDS);
                final int from = (int)Math.round(w[w.length - 1]);
                hi = 0;
                lo = 0;
                for (int i = 0; i < w.length - 1; i++)
                {
                    hi += w[i] * at(high, base * j + from + i);
                    lo += w[i] * (low == null ? 1 : at(low, base * j + from + i));
                }
            }
            return Math.pow(hi, extra) * Math.pow(lo, BLOCK_WORDS - extra);
        }

        /**
         * E[(S_T/64)^q] for T = 0..maxThrows, the occupancy of a 64-bit word computed throw by throw; computed once
         * per q and kept (the sizing and the tuner evaluate thousands of layers), grown when a longer one is asked.
         */
        private static double[] moments(final int q, final int maxThrows)
        {
            final double[] cached = MOMENTS.get(q);
            final int wanted = Math.min(maxThrows, MAX_THROWS);
            if (cached != null && cached.length > wanted)
            {
                return cached;
            }
            synchronized (MOMENTS)
            {
                final int length = Math.min(MAX_THROWS + 1, Math.max(wanted + 1, cached == null ? 1024 :
                    2 * cached.length));
                final double[] out = new double[length];
                final double[] power = new double[WORD_BITS + 1];
                for (int s = 0; s <= WORD_BITS; s++)
                {
                    power[s] = Math.pow((double)s / WORD_BITS, q);
                }
                double[] p = new double[WORD_BITS + 1];
                double[] next = new double[WORD_BITS + 1];
                p[0] = 1;
                for (int t = 1; t < length; t++)
                {
                    java.util.Arrays.fill(next, 0);
                    for (int s = 0; s <= Math.min(WORD_BITS, t - 1); s++)
                    {
                        next[s] += p[s] * s / WORD_BITS;
                        if (s < WORD_BITS)
                        {
                            next[s + 1] += p[s] * (WORD_BITS - s) / WORD_BITS;
                        }
                    }
                    final double[] swap = p;
                    p = next;
                    next = swap;
                    double e = 0;
                    for (int s = 1; s <= WORD_BITS; s++)
                    {
                        e += p[s] * power[s];
                    }
                    out[t] = e;
                }
                MOMENTS.set(q, out);
                return out;
            }
        }
    }
}
