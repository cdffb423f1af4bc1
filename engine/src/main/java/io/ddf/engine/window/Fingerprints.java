package io.ddf.engine.window;

import io.ddf.engine.hash.Mix;

/**
 * The short hashes h(e) of SHF and CSHF (seed 001 §3.2): f bits of a re-mixed element hash, never 0. A zero value is
 * re-derived until non-zero, as the quotient filters do (seed 000 §3.2, option 3), so 0 can mark a ring slot never
 * written; there are 2^f − 1 fingerprints rather than the paper's 2^f.
 */
final class Fingerprints
{
    private Fingerprints()
    {
    }

    /**
     * @param hash the element's 64-bit hash.
     * @param bits f, 1..64.
     * @return the first non-zero value of {@code mix64(x + γ)} masked to f bits along x₀ = hash, xᵢ₊₁ = that mix.
     */
    static long of(final long hash, final int bits)
    {
        final long mask = bits == 64 ? -1L : (1L << bits) - 1;
        long x = hash;
        long value;
        do
        {
            x = Mix.mix64(x + Mix.GOLDEN_GAMMA);
            value = x & mask;
        }
        while (value == 0);
        return value;
    }
}
