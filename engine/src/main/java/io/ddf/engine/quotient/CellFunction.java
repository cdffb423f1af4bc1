package io.ddf.engine.quotient;

import io.ddf.engine.hash.Fingerprint;

/**
 * Derives the value an element stores in a cell from its 64-bit hash. Never 0: 0 marks an empty cell, so a
 * zero value is re-derived until non-zero ({@link Fingerprint}, QHT paper §3.2, option 3).
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 *
 * <p>The SQF paper: S. Dutta, A. Narang and S. K. Bera, "Streaming Quotient Filter: A Near Optimal Approximate
 * Duplicate Detection Approach for Data Streams", PVLDB 6(8), 2013.
 */
public interface CellFunction
{
    /**
     * @param hash the element's hash.
     * @return its non-zero cell value.
     */
    long cell(long hash);

    /**
     * A QHT fingerprint: s bits of a re-mixed hash, re-mixed again while zero.
     *
     * @param fingerprintBits s.
     * @return the function.
     */
    static CellFunction qht(final int fingerprintBits)
    {
        final long mask = (1L << fingerprintBits) - 1;
        return hash -> Fingerprint.nonZero(hash, mask);
    }

    /**
     * An SQF signature (SQF paper Alg. 1): the r' most significant bits of the r-bit remainder (the reduced
     * remainder), followed by the remainder's Hamming weight in ⌈log2(r + 1)⌉ bits. A zero remainder is re-derived.
     *
     * @param remainderBits r.
     * @param reducedBits   r'.
     * @return the function.
     */
    static CellFunction sqf(final int remainderBits, final int reducedBits)
    {
        final long mask = (1L << remainderBits) - 1;
        final int reducedShift = remainderBits - reducedBits;
        final int weightBits = sqfWeightBits(remainderBits);
        return hash ->
        {
            final long remainder = Fingerprint.nonZero(hash, mask);
            return ((remainder >>> reducedShift) << weightBits) | Long.bitCount(remainder);
        };
    }

    /**
     * Bits of an SQF signature: the reduced remainder and the Hamming weight of the remainder, which takes
     * values 0..r and so needs ⌈log2(r + 1)⌉ bits (QHT paper §4.4.2).
     *
     * @param remainderBits r.
     * @param reducedBits   r'.
     * @return r' + ⌈log2(r + 1)⌉.
     */
    static int sqfSignatureBits(final int remainderBits, final int reducedBits)
    {
        return reducedBits + sqfWeightBits(remainderBits);
    }

    /**
     * @param remainderBits r.
     * @return ⌈log2(r + 1)⌉, the bits of a weight in 0..r.
     */
    static int sqfWeightBits(final int remainderBits)
    {
        return 64 - Long.numberOfLeadingZeros(remainderBits);
    }

    /**
     * S for SQF: 2^r' · (r − r' + 1) − 1 distinct non-empty signatures (QHT paper §4.4.1; a zero remainder is
     * re-derived, so the all-zero signature never occurs).
     *
     * @param remainderBits r.
     * @param reducedBits   r'.
     * @return S.
     */
    static long sqfDistinctSignatures(final long remainderBits, final long reducedBits)
    {
        return (1L << reducedBits) * (remainderBits - reducedBits + 1) - 1;
    }
}
