package io.ddf.engine.model;

/**
 * The asymptotic error rates of a QHT with duplicates (QHTD, QHT paper §5.1), whose k cells per row are not
 * necessarily distinct: FPR_∞ = 1 − (1 − 1/S)^k and, by Claim 4.1 (FPR_∞ + FNR_∞ = 1), FNR_∞ = (1 − 1/S)^k, with
 * S = 2^s − 1 usable fingerprints. The paper gives no finite-stream form for QHTD, so this model is asymptotic only.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
public final class QhtdModel
{
    private final int buckets;
    private final double fingerprints;

    /**
     * @param buckets         k, at least 1.
     * @param fingerprintBits s, in 2..32.
     */
    public QhtdModel(final int buckets, final int fingerprintBits)
    {
        if (buckets < 1 || fingerprintBits < 2 || fingerprintBits > 32)
        {
            throw new IllegalArgumentException("need k >= 1 and s in 2..32, got k=" + buckets + ", s=" +
                fingerprintBits);
        }
        this.buckets = buckets;
        this.fingerprints = Math.pow(2, fingerprintBits) - 1;
    }

    /** @return FPR_∞ = 1 − (1 − 1/S)^k. */
    public double asymptoticFalsePositiveRate()
    {
        return -Math.expm1(buckets * Math.log1p(-1 / fingerprints));
    }

    /** @return FNR_∞ = (1 − 1/S)^k. */
    public double asymptoticFalseNegativeRate()
    {
        return Math.exp(buckets * Math.log1p(-1 / fingerprints));
    }
}
