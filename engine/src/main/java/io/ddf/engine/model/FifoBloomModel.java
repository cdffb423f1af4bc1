package io.ddf.engine.model;

import java.util.Arrays;

/**
 * The error model of the capacity filter ({@code fifo-bloom}): L Bloom subfilters of m bits and K hash functions,
 * each taking c = ⌈n / L⌉ new items in turn, the oldest recycled when a new generation starts (the queuing
 * construction of the sliding-window paper Alg. 2, counting only items judged new).
 *
 * <p>With N the items inserted so far (items judged new):
 * <ul>
 *   <li>Held: every item while N ≤ L·c; afterwards the newest generation holds r = N − g·c ∈ [1, c] (g = ⌊(N − 1) /
 *       c⌋) and the L − 1 others c each, so the filter holds the newest (L − 1)·c + r items, and forgets exactly the
 *       N − held oldest.</li>
 *   <li>False positive rate of an item never added: 1 − Π (1 − f(n_i)) over the subfilters, n_i items inserted in
 *       subfilter i, f(n) = p(x(n)) ({@link InsertedLoad}): p(x) = (1 − e^{−Kx/m})^K the Bloom filter's (Bloom
 *       1970; the standard approximation, which a fresh bit array of m ≫ K bits follows within a fraction of a
 *       percent), at the x(n) items offered for n to be inserted (an item is inserted only when no subfilter holds
 *       it; the blocked ones set no bit). p(n) itself understated the FPR at 4 bits per item by 2–3 points.</li>
 *   <li>False negative rate: a Bloom filter has none, so an added item answers "absent" only once its generation
 *       was recycled, and then unless the held generations match it by chance: (N − held) / N · (1 − FPR). Without
 *       the last factor the rate was 16 points high at 4 bits per item, 3 × capacity.</li>
 * </ul>
 * The sizing's bound is the older form, 1 − (1 − p(c))^L with every subfilter full ({@link #worstFalsePositiveRate},
 * {@link #bloomSize}): at the error rates it sizes for, x(c) exceeds c by well under 1 %, inside
 * {@link #SIZING_MARGIN}, and keeping it keeps the sizes of existing filters.
 * Sizing (given n, L and a target ε): each subfilter needs p(c) ≤ ε_s = 1 − (1 − ε)^{1/L}; m is the least number
 * of bits for which some integer K meets it (the optimum K = m/c · ln 2 rounded either way), within the margin
 * {@link #SIZING_MARGIN}.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
public final class FifoBloomModel
{
    /**
     * The sizing aims at {@code SIZING_MARGIN · ε} for the worst instant (every subfilter full), so that a
     * measurement of 10^6 never-added probes at that instant stays below ε by about five standard deviations at
     * ε = 0.01, and the double-hashing and finite-m departures from the formula (measured in
     * {@code FifoBloomCapacityTest}) stay inside the bound. It costs log2(1/0.95)/ln 2 ≈ 0.11 bits per item.
     */
    public static final double SIZING_MARGIN = 0.95;
    /** Largest K·x·m for which {@link #bloomFpr} computes the exact occupancy distribution (a few milliseconds). */
    static final double EXACT_WORK = 4e6;
    /**
     * Fewest hash functions of a fifo-bloom: with one, every generation uses the same bit position for an item, and
     * an item is inserted only where that bit is clear in every generation, so the generations partition the bits
     * and the FPR is their union, not the product this model takes (measured 77–96 % where it said 58–63 %).
     */
    public static final int MIN_HASH_FUNCTIONS = 2;
    /** Most hash functions the sizing uses (the engine's Bloom filters take at most 32). */
    public static final int MAX_HASH_FUNCTIONS = 32;

    private final long bitsPerSubfilter;
    private final int hashFunctions;
    private final long perSubfilter;
    private final int generations;
    /** Each generation's blocked layer (format 2.0 of the kind), or null for standard Bloom subfilters (1.0). */
    private final BlockedBloomModel layer;

    /**
     * @param memoryBits    the filter's total bits, L · m.
     * @param hashFunctions K.
     * @param capacity      n.
     * @param generations   L.
     * @param blocksPerItem d of the blocked 2.0 layout, or 0 for the 1.0 layout's standard Bloom generations.
     * @return the model of a fifo-bloom of either layout.
     */
    public static FifoBloomModel of(final long memoryBits, final int hashFunctions, final long capacity,
        final int generations, final int blocksPerItem)
    {
        if (blocksPerItem == 0)
        {
            return of(memoryBits, hashFunctions, capacity, generations);
        }
        return blocked(new BlockedBloomModel(memoryBits / generations / BlockedBloomModel.BLOCK_BITS, hashFunctions,
            blocksPerItem), capacity, generations);
    }

    /**
     * @param layer       each generation's blocked layer.
     * @param capacity    n.
     * @param generations L.
     * @return the model of a blocked fifo-bloom (the same held and forgotten items; each generation's rate by
     *     {@link BlockedBloomModel}, in the items inserted).
     */
    public static FifoBloomModel blocked(final BlockedBloomModel layer, final long capacity, final int generations)
    {
        return new FifoBloomModel(layer, (capacity + generations - 1) / generations, generations);
    }

    private FifoBloomModel(final BlockedBloomModel layer, final long perSubfilter, final int generations)
    {
        this.bitsPerSubfilter = layer.bits();
        this.hashFunctions = layer.hashFunctions();
        this.perSubfilter = perSubfilter;
        this.generations = generations;
        this.layer = layer;
    }

    /**
     * @param memoryBits    the filter's total bits, L · m.
     * @param hashFunctions K.
     * @param capacity      n, items kept before the oldest go.
     * @param generations   L.
     * @return the model of a fifo-bloom filter of those parameters: subfilters of m bits and ⌈n / L⌉ items.
     */
    public static FifoBloomModel of(final long memoryBits, final int hashFunctions, final long capacity,
        final int generations)
    {
        return new FifoBloomModel(memoryBits / generations, hashFunctions, (capacity + generations - 1) / generations,
            generations);
    }

    /**
     * @param bitsPerSubfilter m.
     * @param hashFunctions    K.
     * @param perSubfilter     c, new items per subfilter.
     * @param generations      L.
     */
    public FifoBloomModel(final long bitsPerSubfilter, final int hashFunctions, final long perSubfilter,
        final int generations)
    {
        this.bitsPerSubfilter = bitsPerSubfilter;
        this.hashFunctions = hashFunctions;
        this.perSubfilter = perSubfilter;
        this.generations = generations;
        this.layer = null;
    }

    /** One generation's expected FPR holding {@code load} inserted items. */
    private double generationFpr(final long load)
    {
        return layer != null ? layer.fpr(load) : InsertedLoad.fpr(bitsPerSubfilter, hashFunctions, load);
    }

    /**
     * The expected false positive rate of a Bloom filter. For small tables (K·x·m ≤ {@value #EXACT_WORK}) it is exact
     * for K·x uniform throws: Σ_j P(j bits set)·(j/m)^K, the occupancy distribution computed throw by throw; the
     * formula (1 − e^{−Kx/m})^K is E[fraction set]^K, which Jensen's inequality puts below that (by 2 % at m = 556,
     * K = 8, x = 50; by well under 1 % once m is in the tens of thousands, where the formula is used).
     *
     * @param bits  m.
     * @param k     K.
     * @param items x, items in the Bloom filter.
     * @return the expected probability that an item never added answers "present".
     */
    public static double bloomFpr(final long bits, final int k, final long items)
    {
        if ((double)k * items * bits > EXACT_WORK || items == 0)
        {
            return Math.pow(-Math.expm1(-k * (double)items / bits), k);
        }
        final int m = (int)bits;
        double[] p = new double[m + 1];
        double[] next = new double[m + 1];
        p[0] = 1;
        final long throwsCount = (long)k * items;
        for (long t = 0; t < throwsCount; t++)
        {
            final int top = (int)Math.min(m, t + 1);
            Arrays.fill(next, 0, top + 1, 0);
            for (int j = 0; j <= Math.min(m, t); j++)
            {
                next[j] += p[j] * j / m;
                if (j < m)
                {
                    next[j + 1] += p[j] * (m - j) / m;
                }
            }
            final double[] swap = p;
            p = next;
            next = swap;
        }
        double fpr = 0;
        for (int j = 0; j <= m; j++)
        {
            fpr += p[j] * Math.pow((double)j / m, k);
        }
        return fpr;
    }

    /**
     * @param inserted N, items inserted so far.
     * @return how many of them the filter still holds (the newest ones).
     */
    public long held(final long inserted)
    {
        final long full = generations * perSubfilter;
        if (inserted <= full)
        {
            return inserted;
        }
        final long newestGeneration = (inserted - 1) / perSubfilter;
        return (generations - 1) * perSubfilter + inserted - newestGeneration * perSubfilter;
    }

    /**
     * @param inserted N.
     * @return the fraction of the filter's room in use: held / (L·c).
     */
    public double fill(final long inserted)
    {
        return (double)held(inserted) / (generations * perSubfilter);
    }

    /**
     * @param inserted N.
     * @return predicted probability that an item never added answers "present".
     */
    public double falsePositiveRate(final long inserted)
    {
        long remaining = held(inserted);
        final double full = remaining >= perSubfilter ? generationFpr(perSubfilter) : 0;
        double none = 1;
        for (int i = 0; i < generations && remaining > 0; i++)
        {
            // the newest generation holds the remainder, the others are full: the product does not depend on order
            final long load = i == 0 && remaining % perSubfilter != 0 ? remaining % perSubfilter : perSubfilter;
            none *= 1 - (load == perSubfilter ? full : generationFpr(load));
            remaining -= load;
        }
        return 1 - none;
    }

    /**
     * @param inserted N.
     * @return predicted fraction of the N added items that answer "absent": the forgotten oldest, (N − held) / N,
     *     less those the held generations match by chance (a forgotten item is to them one never added).
     */
    public double falseNegativeRate(final long inserted)
    {
        final long forgotten = inserted - held(inserted);
        return forgotten == 0 ? 0 : (double)forgotten / inserted * (1 - falsePositiveRate(inserted));
    }

    /**
     * @return the sizing's bound on the false positive rate, every subfilter full: 1 − (1 − p(c))^L, Bloom's formula
     *     in the inserted count (the class comment says why the sizing keeps it).
     */
    public double worstFalsePositiveRate()
    {
        final double full = layer != null ? layer.fpr(perSubfilter) :
            bloomFpr(bitsPerSubfilter, hashFunctions, perSubfilter);
        return 1 - Math.pow(1 - full, generations);
    }

    /**
     * @param target      ε, the false positive rate to hold.
     * @param generations L.
     * @return ε_s = 1 − (1 − SIZING_MARGIN·ε)^{1/L}, the rate each subfilter may reach when full.
     */
    public static double subfilterTarget(final double target, final int generations)
    {
        return -Math.expm1(Math.log1p(-SIZING_MARGIN * target) / generations);
    }

    /**
     * The least number of bits m for which a Bloom filter of some integer K holds c items at a false positive rate
     * ≤ ε_s (the two integers around the real optimum K are tried).
     *
     * @param items          c, at least 1.
     * @param subfilterTarget ε_s in (0, 1).
     * @return {m, K}.
     */
    public static long[] bloomSize(final long items, final double subfilterTarget)
    {
        return bloomSize(items, subfilterTarget, 1);
    }

    /**
     * {@link #bloomSize(long, double)} with at least {@code minHashFunctions} hash functions (fifo-bloom's
     * {@link #MIN_HASH_FUNCTIONS}).
     *
     * @param items            c, at least 1.
     * @param subfilterTarget  ε_s in (0, 1).
     * @param minHashFunctions the least K, 1..{@value #MAX_HASH_FUNCTIONS}.
     * @return {m, K}.
     */
    public static long[] bloomSize(final long items, final double subfilterTarget, final int minHashFunctions)
    {
        final double ln2 = Math.log(2);
        long bits = Math.max(64, (long)Math.floor(-items * Math.log(subfilterTarget) / (ln2 * ln2)));
        if (bits * ln2 / items < minHashFunctions)
        {
            // below minK·c/ln 2 bits the real optimum is under minK, so minK is the best K allowed, and by Bloom's
            // formula (which the exact form only exceeds) it needs m ≥ −minK·c / ln(1 − ε_s^{1/minK}): start there
            // rather than step up from the unconstrained optimum one bit at a time
            final double least = -minHashFunctions * (double)items / Math.log1p(-Math.pow(subfilterTarget,
                1.0 / minHashFunctions));
            bits = Math.max(bits, (long)Math.floor(Math.min(least, minHashFunctions * (double)items / ln2)));
        }
        while (true)
        {
            final double realK = bits * ln2 / items;
            final int low = (int)Math.max(minHashFunctions, Math.min(MAX_HASH_FUNCTIONS, Math.floor(realK)));
            final int high = (int)Math.max(minHashFunctions, Math.min(MAX_HASH_FUNCTIONS, Math.ceil(realK)));
            final int k = bloomFpr(bits, low, items) <= bloomFpr(bits, high, items) ? low : high;
            if (bloomFpr(bits, k, items) <= subfilterTarget)
            {
                return new long[]{bits, k};
            }
            bits += Math.max(1, bits / 10_000);
        }
    }
}
