package io.ddf.engine.quotient;

/**
 * How a Dynamic SQF lays out in its region: a cache line of state words, then the vector V of R rows, then the
 * pool of P buckets, both bit-packed with the narrowest fields that hold their values.
 *
 * <ul>
 *   <li>row (V's position): head of its bucket chain (bucket index + 1, 0 = none), then its older and newer
 *       neighbours in the recency list of non-empty rows (row index + 1, 0 = none);</li>
 *   <li>bucket: a signature (r' + ⌈log2(r + 1)⌉ bits), then the next bucket of its chain (index + 1, 0 = none).</li>
 * </ul>
 */
final class DsqfLayout
{
    /** Words of state before the rows: one cache line. */
    static final int STATE_WORDS = 8;

    private final long rows;
    private final long pool;
    private final int signatureBits;
    private final int bucketIndexBits;
    private final int rowIndexBits;
    private final long rowWords;
    private final long poolWords;

    DsqfLayout(final long rows, final long pool, final int signatureBits)
    {
        this.rows = rows;
        this.pool = pool;
        this.signatureBits = signatureBits;
        this.bucketIndexBits = bitsFor(pool);
        this.rowIndexBits = bitsFor(rows);
        // One spare word after each packed array, so a field read never straddles past the region.
        this.rowWords = (rows * rowBits() + 63) / 64 + 1;
        this.poolWords = (pool * bucketBits() + 63) / 64 + 1;
    }

    /**
     * @param count a count of things.
     * @return bits to hold an index + 1 in 0..count.
     */
    static int bitsFor(final long count)
    {
        return 64 - Long.numberOfLeadingZeros(count);
    }

    /**
     * @param rows          R.
     * @param pool          P.
     * @param signatureBits bits per signature.
     * @return the bits the rows and pool take (without state words and padding).
     */
    static long payloadBits(final long rows, final long pool, final int signatureBits)
    {
        final long rowBits = bitsFor(pool) + 2L * bitsFor(rows);
        final long bucketBits = signatureBits + bitsFor(pool);
        return rows * rowBits + pool * bucketBits;
    }

    /** @return R. */
    long rows()
    {
        return rows;
    }

    /** @return P. */
    long pool()
    {
        return pool;
    }

    /** @return bits per signature. */
    int signatureBits()
    {
        return signatureBits;
    }

    /** @return bits of a bucket index + 1. */
    int bucketIndexBits()
    {
        return bucketIndexBits;
    }

    /** @return bits of a row index + 1. */
    int rowIndexBits()
    {
        return rowIndexBits;
    }

    /** @return bits per row. */
    int rowBits()
    {
        return bucketIndexBits + 2 * rowIndexBits;
    }

    /** @return bits per pool bucket. */
    int bucketBits()
    {
        return signatureBits + bucketIndexBits;
    }

    /** @return words of the packed rows. */
    long rowWords()
    {
        return rowWords;
    }

    /** @return words of the packed pool. */
    long poolWords()
    {
        return poolWords;
    }

    /** @return region bytes, in whole cache lines. */
    long regionBytes()
    {
        return ((STATE_WORDS + rowWords + poolWords) * 8 + 63) / 64 * 64;
    }
}
