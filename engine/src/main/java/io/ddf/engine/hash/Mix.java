package io.ddf.engine.hash;

/** Integer mixing for deriving independent values from one hash. */
public final class Mix
{
    /** The golden-ratio increment of SplitMix64. */
    public static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private Mix()
    {
    }

    /**
     * SplitMix64's finaliser (Stafford's variant 13): a bijection whose output bits each depend on every input bit.
     *
     * @param z input.
     * @return mixed value.
     */
    public static long mix64(long z)
    {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * Maps a 64-bit value uniformly onto [0, n) by the high half of an unsigned product (Lemire's reduction).
     *
     * @param hash a uniform 64-bit value.
     * @param n    the range, positive.
     * @return a value in [0, n).
     */
    public static long reduce(final long hash, final long n)
    {
        return Math.multiplyHigh(hash, n) + ((hash >> 63) & n);
    }
}
