package io.ddf.engine.model;

/**
 * The stable-point false positive rate of a Stable Bloom Filter (Deng and Rafiei), as quoted in seed 000
 * footnote 12: FPR = (1 − (1 / (1 + 1 / (P (1/K − 1/m))))^Max)^K, for m cells of maximum value Max, K hash
 * functions and P decrements per arrival. It is the limit after many insertions (asymptotic only); the engine's
 * sbf derives P from a target FPR by inverting it.
 */
public final class StableBloomModel
{
    private StableBloomModel()
    {
    }

    /**
     * @param decrements   P, at least 1.
     * @param hashes       K, at least 1.
     * @param cells        m, more than K.
     * @param maximum      Max = 2^d − 1.
     * @return the stable FPR.
     */
    public static double stableFalsePositiveRate(final long decrements, final int hashes, final long cells,
        final int maximum)
    {
        if (decrements < 1 || hashes < 1 || cells <= hashes || maximum < 1)
        {
            throw new IllegalArgumentException("need P >= 1, K >= 1, m > K, Max >= 1");
        }
        final double zeroCell = Math.pow(1 / (1 + 1 / (decrements * (1.0 / hashes - 1.0 / cells))), maximum);
        return Math.pow(1 - zeroCell, hashes);
    }
}
