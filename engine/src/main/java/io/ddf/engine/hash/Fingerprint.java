package io.ddf.engine.hash;


/**
 * The one derivation of a non-zero cell value from an element's hash. Every packed table marks an empty cell with
 * 0, so a value stored in a cell (a QHT fingerprint, an SQF remainder, a cuckoo or window fingerprint) must never be
 * 0: a zero value is re-derived until non-zero (QHT paper §3.2, option 3), giving 2^f − 1 values rather than 2^f.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
public final class Fingerprint
{
    private Fingerprint()
    {
    }

    /**
     * @param hash the element's 64-bit hash.
     * @param mask the bits to keep (non-zero), e.g. {@code PackedCells.mask(f)} of f.
     * @return the first non-zero value of {@code mix64(x + γ) & mask} along x₀ = hash, xᵢ₊₁ = mix64(xᵢ + γ).
     */
    public static long nonZero(final long hash, final long mask)
    {
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
