package io.ddf.bench.reference;

/**
 * The false positive rate of an age-partitioned Bloom filter (Shtul, Baquero and Almeida, "Age-Partitioned Bloom
 * Filters", 2020) and its sizing.
 *
 * <p>An APBF has k + l slices of m bits. An element sets one bit in each of the k newest slices (positions 0..k-1);
 * a generation shift (every g new elements, or every T of time) drops the oldest slice and puts an empty one at
 * position 0. A query answers present when k consecutive slices among the k + l all hold the element's bit. A
 * false positive is k consecutive set bits by chance. With r_i the fill ratio of the slice at position i, the
 * paper's recursion, a the length of the run of set bits so far and i the next position, is
 * <pre>
 *   F(a, i) = 1                                             if a = k
 *           = 0                                             if i &gt; l + a (too few positions left)
 *           = r_i F(a + 1, i + 1) + (1 - r_i) F(0, i + 1)   otherwise
 * </pre>
 * and the rate is F(0, 0). At the paper's design point each slice is sized so that the k generations it takes fill
 * it to 1/2 (m = k g / ln 2), and the paper takes r_i = (i + 1) / 2k below k, 1/2 from k on ({@link #fpr(int, int)}).
 * {@link #steadyFpr} uses the fills a Bloom slice really has, 1 - e^(-j g / m) after j generations, averaged over
 * the phase of the newest generation, which lets a sweep size the slices away from fill 1/2.
 */
public final class ApbfModel
{
    /** Most slices a sweep chooses among (the paper's tables stop near l = 117). */
    public static final int MAX_K = 32;
    /** Most extra slices l a sweep chooses among. */
    public static final int MAX_L = 128;
    /**
     * The paper's (k, l) for ε = 10^-1 .. 10^-5, several per ε (more slices, less memory): as RedisBloom's APBF pull
     * request (291) carries them from the paper. Their {@link #fpr} is ε within -9 % .. +22 % (about ε, not at most:
     * F(7, 5) = 1.12 % for 1 %).
     */
    static final int[][][] PAPER_TABLE = {
        {{4, 3}, {5, 7}, {6, 14}, {7, 28}, {8, 56}},
        {{7, 5}, {8, 8}, {9, 14}, {10, 25}, {11, 46}, {12, 88}},
        {{10, 7}, {11, 9}, {12, 14}, {13, 23}, {14, 40}, {15, 74}},
        {{14, 11}, {15, 15}, {16, 22}, {17, 36}, {18, 63}, {19, 117}},
        {{17, 13}, {18, 16}, {19, 22}, {20, 33}, {21, 54}, {22, 95}}};
    /** Points of the newest generation's phase averaged by {@link #steadyFpr}. */
    private static final int PHASES = 16;

    private ApbfModel()
    {
    }

    /**
     * @param k slices an element is in.
     * @param l extra slices.
     * @return the paper's false positive rate at its design point (fill 1/2 at k generations).
     */
    public static double fpr(final int k, final int l)
    {
        final double[] fill = new double[k + l];
        for (int i = 0; i < fill.length; i++)
        {
            fill[i] = i < k ? (i + 1) / (2.0 * k) : 0.5;
        }
        return runOfK(k, fill);
    }

    /**
     * @param k               slices an element is in.
     * @param l               extra slices.
     * @param itemsPerSliceBit g / m: new elements a generation brings, per bit of a slice.
     * @return the rate averaged over the newest generation's phase, with a slice's fill 1 - e^(-j g / m) after j
     *         generations (j = p + phase at position p &lt; k, k from there on).
     */
    public static double steadyFpr(final int k, final int l, final double itemsPerSliceBit)
    {
        double sum = 0;
        final double[] fill = new double[k + l];
        for (int s = 0; s < PHASES; s++)
        {
            final double phase = (s + 0.5) / PHASES;
            for (int i = 0; i < fill.length; i++)
            {
                fill[i] = 1 - Math.exp(-Math.min(i + phase, k) * itemsPerSliceBit);
            }
            sum += runOfK(k, fill);
        }
        return sum / PHASES;
    }

    /** F(0, 0) of the recursion, by dynamic programming from the last position back. */
    static double runOfK(final int k, final double[] fill)
    {
        final int slices = fill.length;
        // f[a] = F(a, i + 1) while computing F(., i)
        double[] next = new double[k + 1];
        double[] here = new double[k + 1];
        for (int a = 0; a <= k; a++)
        {
            next[a] = a == k ? 1 : 0; // F(a, slices): only a full run counts
        }
        for (int i = slices - 1; i >= 0; i--)
        {
            for (int a = 0; a <= k; a++)
            {
                if (a == k)
                {
                    here[a] = 1;
                }
                else if (slices - i < k - a)
                {
                    here[a] = 0;
                }
                else
                {
                    here[a] = fill[i] * next[a + 1] + (1 - fill[i]) * next[0];
                }
            }
            final double[] t = next;
            next = here;
            here = t;
        }
        return next[0];
    }

    /**
     * The paper's sizing for a target rate (as dcrd's {@code NewFilter} applies it): k = ⌈log2(1/ε)⌉, then the largest
     * l whose {@link #fpr} is at most ε.
     *
     * @param target the false positive rate to hold.
     * @return {k, l}.
     */
    public static int[] design(final double target)
    {
        final int k = (int)Math.ceil(-Math.log(target) / Math.log(2));
        int l = 0;
        while (l < MAX_L && fpr(k, l + 1) <= target)
        {
            l++;
        }
        if (l == 0)
        {
            throw new IllegalArgumentException("no l holds " + target + " with k = " + k);
        }
        return new int[] {k, l};
    }

    /**
     * The paper's own choice for ε = 10^-j (j = 1..5): of its table's (k, l), the one with the least bits per item at
     * the design point, (k + l) k / (l ln 2); for another ε, {@link #design}.
     *
     * @param target ε.
     * @return {k, l}.
     */
    public static int[] paperDesign(final double target)
    {
        final long exponent = Math.round(-Math.log10(target));
        if (exponent < 1 || exponent > PAPER_TABLE.length || Math.abs(Math.pow(10, -exponent) - target) > 1e-12)
        {
            return design(target);
        }
        int[] best = null;
        for (final int[] kl : PAPER_TABLE[(int)exponent - 1])
        {
            if (best == null || bitsPerItem(kl) < bitsPerItem(best))
            {
                best = kl;
            }
        }
        return best.clone();
    }

    private static double bitsPerItem(final int[] kl)
    {
        return (kl[0] + kl[1]) * (double)kl[0] / (kl[1] * Math.log(2));
    }

    /**
     * @param n window: new elements to remember (count), or at most per window of time.
     * @param l extra slices.
     * @return g, new elements per generation so that l generations hold the window: ⌈n / l⌉.
     */
    public static long generation(final long n, final int l)
    {
        return (n + l - 1) / l;
    }

    /**
     * @param k slices an element is in.
     * @param g new elements per generation.
     * @return the paper's slice size, fill 1/2 after k generations: ⌈k g / ln 2⌉ bits.
     */
    public static long designSliceBits(final int k, final long g)
    {
        return (long)Math.ceil(k * (double)g / Math.log(2));
    }

    /**
     * The k and l that give the least {@link #steadyFpr} in a given memory for a window of n new elements.
     *
     * @param n          window.
     * @param memoryBits all the slices' bits.
     * @return {k, l}.
     */
    public static int[] best(final long n, final long memoryBits)
    {
        double bestRate = Double.POSITIVE_INFINITY;
        int[] best = null;
        for (int k = 1; k <= MAX_K; k++)
        {
            for (int l = 1; l <= MAX_L; l++)
            {
                final long m = memoryBits / (k + l);
                if (m < 64)
                {
                    break;
                }
                final double rate = steadyFpr(k, l, generation(n, l) / (double)m);
                if (rate < bestRate)
                {
                    bestRate = rate;
                    best = new int[] {k, l};
                }
            }
        }
        if (best == null)
        {
            throw new IllegalArgumentException("memory-bits " + memoryBits + " is too small for an APBF");
        }
        return best;
    }
}
