package io.ddf.engine.model;

/**
 * The error model of the Short Hash Filter and its compact form (sliding-window paper §3.2, Theorem 3) over a window of
 * w elements with M bits: no false negative, and an unseen element is a false positive iff its fingerprint equals
 * one of the w held, each drawn from F values.
 * <ul>
 *   <li>Theorem 3 as printed, with real-valued fingerprint widths h = M/2w − ½ log2 w (SHF) and h' = M/w (CSHF),
 *       F = 2^h: FP_SHF = 1 − (1 − √(w·2^(−M/w)))^w, FP_CSHF = 1 − (1 − 2^(−M/w))^w
 *       ({@link #paperFalsePositive}).</li>
 *   <li>As built: the width is ⌊h⌋ (⌊h'⌋), capped at 64, and 0 is never a fingerprint, so F = 2^f − 1 and
 *       FP = 1 − (1 − 1/(2^f − 1))^w ({@link #falsePositive}).</li>
 * </ul>
 * These are steady-state values (after w insertions). For a stream of n elements drawn from a large alphabet, the
 * m-th element meets min(m, w) fingerprints, which {@link #falsePositiveRate} averages; the paper gives only the
 * steady state.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
public final class ShortHashModel
{
    private static final int MAX_FINGERPRINT_BITS = 64;

    private final long window;
    private final int fingerprintBits;

    /**
     * @param window          w, at least 1.
     * @param fingerprintBits f, in 1..64.
     */
    public ShortHashModel(final long window, final int fingerprintBits)
    {
        if (window < 1 || fingerprintBits < 1 || fingerprintBits > MAX_FINGERPRINT_BITS)
        {
            throw new IllegalArgumentException("need w >= 1 and f in 1..64, got w=" + window + ", f=" +
                fingerprintBits);
        }
        this.window = window;
        this.fingerprintBits = fingerprintBits;
    }

    /**
     * The filter the engine builds for M bits (Alg. 1's width, floored and capped at 64).
     *
     * @param memoryBits M.
     * @param window     w.
     * @param compact    CSHF rather than SHF.
     * @return the model, or null when M is too small for a one-bit fingerprint.
     */
    public static ShortHashModel forMemory(final long memoryBits, final long window, final boolean compact)
    {
        final long f = fingerprintBits(memoryBits, window, compact);
        return f < 1 ? null : new ShortHashModel(window, (int)Math.min(f, MAX_FINGERPRINT_BITS));
    }

    /**
     * @param memoryBits M.
     * @param window     w.
     * @param compact    CSHF rather than SHF.
     * @return ⌊M/w⌋ (CSHF) or ⌊M/2w − ½ log2 w⌋ (SHF), uncapped, maybe ≤ 0.
     */
    public static long fingerprintBits(final long memoryBits, final long window, final boolean compact)
    {
        final double log2w = Math.log(window) / Math.log(2);
        return compact ? memoryBits / window : (long)Math.floor((double)memoryBits / (2.0 * window) - log2w / 2);
    }

    /**
     * Theorem 3 as printed.
     *
     * @param memoryBits M.
     * @param window     w.
     * @param compact    CSHF rather than SHF.
     * @return 1 − (1 − √(w·2^(−M/w)))^w (SHF) or 1 − (1 − 2^(−M/w))^w (CSHF).
     */
    public static double paperFalsePositive(final long memoryBits, final long window, final boolean compact)
    {
        final double ratio = (double)memoryBits / window;
        final double collision = compact ? Math.pow(2, -ratio) : Math.sqrt(window * Math.pow(2, -ratio));
        return collision >= 1 ? 1 : -Math.expm1(window * Math.log1p(-collision));
    }

    /** @return FN = 0: every element of the window is held exactly (Th. 3). */
    public double falseNegative()
    {
        return 0;
    }

    /** @return the steady-state FP = 1 − (1 − 1/(2^f − 1))^w. */
    public double falsePositive()
    {
        return falsePositiveAfter(window);
    }

    /**
     * @param insertions m.
     * @return 1 − (1 − 1/(2^f − 1))^min(m, w).
     */
    public double falsePositiveAfter(final long insertions)
    {
        return -Math.expm1(Math.min(insertions, window) * Math.log1p(-collision()));
    }

    /**
     * @param n stream length, at least 1.
     * @return (1/n) Σ_{m=0}^{n−1} FP after m, for a stream whose elements are (nearly) all unseen.
     */
    public double falsePositiveRate(final long n)
    {
        final long filling = Math.min(n, window);
        final double sum = filling - Geometric.sum(collision(), filling) + (n - filling) * falsePositive();
        return sum / n;
    }

    private double collision()
    {
        return 1 / (Math.pow(2, fingerprintBits) - 1);
    }
}
