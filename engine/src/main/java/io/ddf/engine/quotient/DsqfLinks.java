package io.ddf.engine.quotient;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.PackedCells;

/**
 * The links of a Dynamic SQF's region ({@link DynamicSqfCore}), plain loads and stores under the core's writer
 * lock: the state words, each row's chain of buckets (a head in the vector V, a next link in each bucket), the free
 * list, and the recency list of the non-empty rows, oldest first (older and newer links in V, the ends in the state
 * words), with the three moves that keep that list: {@link #append}, {@link #unlinkRow} and {@link #makeNewest}.
 * Every index stored is the index + 1, so that 0 means none.
 */
final class DsqfLinks
{
    /** State word: the writer lock, bit 0 (the word is otherwise 0). */
    static final int LOCK = 0;
    /** State word: oldest non-empty row + 1 (0 = none). */
    static final int OLDEST = 1;
    /** State word: newest non-empty row + 1 (0 = none). */
    static final int NEWEST = 2;
    /** State word: buckets ever allocated from the pool (the allocation mark). */
    static final int ALLOCATED = 3;
    /** State word: head of the free list, bucket + 1 (0 = empty). */
    static final int FREE = 4;
    /** State word: hard collisions so far (statistics). */
    static final int EVICTIONS = 5;

    /** The state words. */
    final MappedWords state;
    /** The vector V, bit-packed rows. */
    private final MappedWords vector;
    /** The pool, bit-packed buckets. */
    private final MappedWords buckets;
    /** R. */
    final long rows;
    /** P. */
    final long pool;
    private final int signatureBits;
    private final int bucketIndexBits;
    private final int rowIndexBits;
    private final int rowBits;
    private final int bucketBits;

    /**
     * @param layout the filter's layout.
     * @param region its region: state words, then V, then the pool.
     */
    DsqfLinks(final DsqfLayout layout, final MappedWords region)
    {
        this.state = region.slice(0, DsqfLayout.STATE_WORDS);
        this.vector = region.slice(DsqfLayout.STATE_WORDS, layout.rowWords());
        this.buckets = region.slice(DsqfLayout.STATE_WORDS + layout.rowWords(), layout.poolWords());
        this.rows = layout.rows();
        this.pool = layout.pool();
        this.signatureBits = layout.signatureBits();
        this.bucketIndexBits = layout.bucketIndexBits();
        this.rowIndexBits = layout.rowIndexBits();
        this.rowBits = layout.rowBits();
        this.bucketBits = layout.bucketBits();
    }

    /** Makes a non-empty row the most recent. */
    void makeNewest(final long row)
    {
        if (state.getLongPlain(NEWEST) != row + 1)
        {
            unlinkRow(row);
            append(row);
        }
    }

    void unlinkRow(final long row)
    {
        final long older = older(row);
        final long newer = newer(row);
        if (older != 0)
        {
            setNewer(older - 1, newer);
        }
        else
        {
            state.putLongPlain(OLDEST, newer);
        }
        if (newer != 0)
        {
            setOlder(newer - 1, older);
        }
        else
        {
            state.putLongPlain(NEWEST, older);
        }
        setOlder(row, 0);
        setNewer(row, 0);
    }

    void append(final long row)
    {
        final long newest = state.getLongPlain(NEWEST);
        setOlder(row, newest);
        setNewer(row, 0);
        if (newest != 0)
        {
            setNewer(newest - 1, row + 1);
        }
        else
        {
            state.putLongPlain(OLDEST, row + 1);
        }
        state.putLongPlain(NEWEST, row + 1);
    }

    long head(final long row)
    {
        return PackedCells.getFieldPlain(vector, row * rowBits, bucketIndexBits);
    }

    void setHead(final long row, final long bucketPlusOne)
    {
        PackedCells.setFieldPlain(vector, row * rowBits, bucketIndexBits, bucketPlusOne);
    }

    long older(final long row)
    {
        return PackedCells.getFieldPlain(vector, row * rowBits + bucketIndexBits, rowIndexBits);
    }

    void setOlder(final long row, final long rowPlusOne)
    {
        PackedCells.setFieldPlain(vector, row * rowBits + bucketIndexBits, rowIndexBits, rowPlusOne);
    }

    long newer(final long row)
    {
        return PackedCells.getFieldPlain(vector, row * rowBits + bucketIndexBits + rowIndexBits, rowIndexBits);
    }

    void setNewer(final long row, final long rowPlusOne)
    {
        PackedCells.setFieldPlain(vector, row * rowBits + bucketIndexBits + rowIndexBits, rowIndexBits, rowPlusOne);
    }

    long signatureOf(final long bucket)
    {
        return PackedCells.getFieldPlain(buckets, bucket * bucketBits, signatureBits);
    }

    void setSignature(final long bucket, final long signature)
    {
        PackedCells.setFieldPlain(buckets, bucket * bucketBits, signatureBits, signature);
    }

    long next(final long bucket)
    {
        return PackedCells.getFieldPlain(buckets, bucket * bucketBits + signatureBits, bucketIndexBits);
    }

    void setNext(final long bucket, final long bucketPlusOne)
    {
        PackedCells.setFieldPlain(buckets, bucket * bucketBits + signatureBits, bucketIndexBits, bucketPlusOne);
    }
}
