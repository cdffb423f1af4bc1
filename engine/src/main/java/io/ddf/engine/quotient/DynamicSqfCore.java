package io.ddf.engine.quotient;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.LockWord;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.PackedCells;
import io.ddf.engine.spi.FilterCore;

/**
 * Dynamic SQF (seed 004 §5.1): SQF's rows become a vector V of R chains of buckets allocated on demand from a
 * pool of P buckets shared by all rows. An element's row and signature are SQF's (the r' most significant bits of
 * its r-bit remainder, then the remainder's Hamming weight). DUPLICATE when the row's chain holds the signature;
 * otherwise a bucket holding the signature is linked at the head of the chain: a free bucket while the pool lasts,
 * else — a hard collision — a bucket chosen uniformly (from the element's hash) in the chain of the least recently
 * accessed row, unlinked from it and reused. Every stream (DUPLICATE or not) accesses its row, which becomes the
 * most recent, before any eviction. Recency is kept as a doubly-linked list of the non-empty rows, oldest first,
 * replacing §5.1's per-position timestamps (the same order, found in O(1)).
 *
 * <p>A bucket is never returned to the pool during streaming (a hard collision moves it straight to the new row,
 * as §5.1 says); the pool's free buckets are those never allocated (below P, above the allocation mark) and a free
 * list, which only {@link #recover()} fills, with buckets a crash left unreachable.
 *
 * <p>Concurrency: every row's update also moves the shared recency list, so the whole structure has one writer
 * lock ({@link LockWord} bit 0 of state word 0) taken by {@code stream} and {@code contains} alike: atomic per
 * element, one thread at a time. A process killed while holding it leaves the bit set and possibly a half-made
 * update (a bucket unlinked from one row and not yet linked to the other, a row half moved in the recency list);
 * {@link #recover()} relinks what it can, returns unreachable buckets to the free list, and clears the lock.
 *
 * <p>In single-writer mode the table's updates are plain and release stores, but the writer lock stays a locked
 * compare-and-swap (uncontended, one per element): the rows and the recency list are linked through the pool, and a
 * second thread misusing the filter without the lock would not just lose an element but break links, sending a
 * later eviction outside the pool (SingleWriterMisuseTest found an index of -1 there).
 */
final class DynamicSqfCore implements FilterCore
{
    /** State word: the writer lock, bit 0 (the word is otherwise 0). */
    static final int LOCK = 0;
    /** The writer lock's bit in word {@link #LOCK}. */
    private static final long LOCK_BIT = 1L;
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

    private static final long EVICTION_SALT = 0x94D049BB133111EBL;

    private final MappedWords region;
    private final MappedWords state;
    /** State word {@link #LOCK} alone, shared in either mode (see the class comment). */
    private final MappedWords lockWord;
    /** The vector V, bit-packed rows. */
    private final MappedWords vector;
    /** The pool, bit-packed buckets. */
    private final MappedWords buckets;
    private final long rows;
    private final long pool;
    private final int signatureBits;
    private final int bucketIndexBits;
    private final int rowIndexBits;
    private final int rowBits;
    private final int bucketBits;
    private final CellFunction signatures;

    DynamicSqfCore(final DsqfLayout layout, final int remainderBits, final int reducedBits, final MappedWords region)
    {
        this.region = region;
        this.state = region.slice(0, DsqfLayout.STATE_WORDS);
        this.lockWord = region.sharedSlice(LOCK, 1);
        this.vector = region.slice(DsqfLayout.STATE_WORDS, layout.rowWords());
        this.buckets = region.slice(DsqfLayout.STATE_WORDS + layout.rowWords(), layout.poolWords());
        this.rows = layout.rows();
        this.pool = layout.pool();
        this.signatureBits = layout.signatureBits();
        this.bucketIndexBits = layout.bucketIndexBits();
        this.rowIndexBits = layout.rowIndexBits();
        this.rowBits = layout.rowBits();
        this.bucketBits = layout.bucketBits();
        this.signatures = CellFunction.sqf(remainderBits, reducedBits);
    }

    @Override
    public boolean stream(final long hash)
    {
        final long row = rowOf(hash);
        final long signature = signature(hash);
        lock();
        try
        {
            if (find(row, signature))
            {
                makeNewest(row);
                return true;
            }
            final long bucket = allocate(row, hash);
            final long first = head(row);
            setSignature(bucket, signature);
            setNext(bucket, first);
            setHead(row, bucket + 1);
            if (first == 0)
            {
                append(row);
            }
            else
            {
                makeNewest(row);
            }
            return false;
        }
        finally
        {
            unlock();
        }
    }

    @Override
    public boolean contains(final long hash)
    {
        final long row = rowOf(hash);
        final long signature = signature(hash);
        lock();
        try
        {
            return find(row, signature);
        }
        finally
        {
            unlock();
        }
    }

    @Override
    public void clear()
    {
        region.clear();
    }

    /** After a crash: repairs a half-made update (see the class comment) and clears the writer lock. */
    @Override
    public void recover()
    {
        if (LockWord.isLockedVolatile(state, LOCK, LOCK_BIT))
        {
            repair();
            LockWord.recoverRelease(state, LOCK, LOCK_BIT);
        }
    }

    /**
     * @param hash an element's hash.
     * @return its row, the position of V.
     */
    long rowOf(final long hash)
    {
        return Mix.reduce(hash, rows);
    }

    /**
     * SQF's signature (seed 004 Alg. 1): reduced remainder, then Hamming weight of the remainder.
     *
     * @param hash an element's hash.
     * @return its signature, never 0.
     */
    long signature(final long hash)
    {
        return signatures.cell(hash);
    }

    private void lock()
    {
        LockWord.lockAcquire(lockWord, 0, LOCK_BIT);
    }

    private void unlock()
    {
        LockWord.unlockRelease(lockWord, 0, 0, LOCK_BIT);
    }

    private boolean find(final long row, final long signature)
    {
        for (long b = head(row); b != 0; b = next(b - 1))
        {
            if (signatureOf(b - 1) == signature)
            {
                return true;
            }
        }
        return false;
    }

    /** A bucket for a new signature of row: from the free list, the never-used pool, or by eviction. */
    private long allocate(final long row, final long hash)
    {
        final long free = state.getLongPlain(FREE);
        if (free != 0)
        {
            state.putLongPlain(FREE, next(free - 1));
            return free - 1;
        }
        final long allocated = state.getLongPlain(ALLOCATED);
        if (allocated < pool)
        {
            state.putLongPlain(ALLOCATED, allocated + 1);
            return allocated;
        }
        if (head(row) != 0)
        {
            makeNewest(row); // this access is the most recent: the victim is another row's bucket when there is one
        }
        state.putLongPlain(EVICTIONS, state.getLongPlain(EVICTIONS) + 1);
        return evict(state.getLongPlain(OLDEST) - 1, hash);
    }

    /** Unlinks a bucket chosen uniformly in row's chain; the row leaves the recency list when it empties. */
    private long evict(final long row, final long hash)
    {
        long length = 0;
        for (long b = head(row); b != 0; b = next(b - 1))
        {
            length++;
        }
        final long chosen = Mix.reduce(Mix.mix64(hash ^ EVICTION_SALT), length);
        long previous = -1;
        long bucket = head(row) - 1;
        for (long i = 0; i < chosen; i++)
        {
            previous = bucket;
            bucket = next(bucket) - 1;
        }
        if (previous < 0)
        {
            setHead(row, next(bucket));
        }
        else
        {
            setNext(previous, next(bucket));
        }
        if (head(row) == 0)
        {
            unlinkRow(row);
        }
        return bucket;
    }

    /** Makes a non-empty row the most recent. */
    private void makeNewest(final long row)
    {
        if (state.getLongPlain(NEWEST) != row + 1)
        {
            unlinkRow(row);
            append(row);
        }
    }

    private void unlinkRow(final long row)
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

    private void append(final long row)
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

    /**
     * Rebuilds after a crash mid-update: cuts chains at a bucket that is unallocated or already reached, returns
     * every allocated but unreachable bucket to the free list, and rebuilds the recency list from the old one as far
     * as it holds together, appending non-empty rows it lost.
     */
    private void repair()
    {
        final long allocated = Math.min(state.getLongPlain(ALLOCATED), pool);
        state.putLongPlain(ALLOCATED, allocated);
        final long[] reached = new long[(int)((pool + 63) >>> 6)];
        for (long row = 0; row < rows; row++)
        {
            long previous = -1;
            long bucket = head(row) - 1;
            while (bucket >= 0)
            {
                if (bucket >= allocated || (reached[(int)(bucket >>> 6)] & (1L << bucket)) != 0)
                {
                    if (previous < 0)
                    {
                        setHead(row, 0);
                    }
                    else
                    {
                        setNext(previous, 0);
                    }
                    break;
                }
                reached[(int)(bucket >>> 6)] |= 1L << bucket;
                previous = bucket;
                bucket = next(bucket) - 1;
            }
        }
        long free = 0;
        for (long bucket = allocated - 1; bucket >= 0; bucket--)
        {
            if ((reached[(int)(bucket >>> 6)] & (1L << bucket)) == 0)
            {
                setNext(bucket, free);
                free = bucket + 1;
            }
        }
        state.putLongPlain(FREE, free);
        final long[] listed = new long[(int)((rows + 63) >>> 6)];
        long current = state.getLongPlain(OLDEST);
        state.putLongPlain(OLDEST, 0);
        state.putLongPlain(NEWEST, 0);
        for (long steps = 0; current != 0 && current <= rows && steps < rows; steps++)
        {
            final long row = current - 1;
            current = newer(row);
            if (head(row) != 0 && (listed[(int)(row >>> 6)] & (1L << row)) == 0)
            {
                listed[(int)(row >>> 6)] |= 1L << row;
                append(row);
            }
        }
        for (long row = 0; row < rows; row++)
        {
            if ((listed[(int)(row >>> 6)] & (1L << row)) == 0)
            {
                if (head(row) != 0)
                {
                    append(row);
                }
                else
                {
                    setOlder(row, 0);
                    setNewer(row, 0);
                }
            }
        }
    }

    /**
     * Checks the structure (for tests; call with no concurrent stream): every bucket reachable from at most one
     * place, the recency list exactly the non-empty rows and consistently linked.
     *
     * @return {buckets in chains, buckets on the free list, buckets never allocated}, which sum to P.
     * @throws IllegalStateException when the structure is inconsistent.
     */
    long[] census()
    {
        final boolean[] seen = new boolean[(int)pool];
        long used = 0;
        long nonEmpty = 0;
        for (long row = 0; row < rows; row++)
        {
            nonEmpty += head(row) != 0 ? 1 : 0;
            for (long b = head(row); b != 0; b = next(b - 1))
            {
                mark(seen, b - 1, "chain of row " + row);
                used++;
            }
        }
        long free = 0;
        for (long b = state.getLongPlain(FREE); b != 0; b = next(b - 1))
        {
            mark(seen, b - 1, "free list");
            free++;
        }
        final long allocated = state.getLongPlain(ALLOCATED);
        for (long b = allocated; b < pool; b++)
        {
            mark(seen, b, "unallocated pool");
        }
        long listed = 0;
        long previous = 0;
        for (long r = state.getLongPlain(OLDEST); r != 0; r = newer(r - 1))
        {
            if (older(r - 1) != previous || head(r - 1) == 0 || ++listed > rows)
            {
                throw new IllegalStateException("recency list broken at row " + (r - 1));
            }
            previous = r;
        }
        if (previous != state.getLongPlain(NEWEST) || listed != nonEmpty)
        {
            throw new IllegalStateException("recency list holds " + listed + " rows, " + nonEmpty + " are non-empty");
        }
        return new long[] {used, free, pool - allocated};
    }

    private static void mark(final boolean[] seen, final long bucket, final String where)
    {
        if (seen[(int)bucket])
        {
            throw new IllegalStateException("bucket " + bucket + " reached twice (again from " + where + ")");
        }
        seen[(int)bucket] = true;
    }

    /** @return hard collisions so far. */
    long evictions()
    {
        return state.getLongVolatile(EVICTIONS);
    }

    /** @return P. */
    long pool()
    {
        return pool;
    }

    /**
     * Sets the lock bit and unlinks a bucket from its chain without returning it, as a crash mid-update would
     * (for the recovery test).
     *
     * @param row a non-empty row.
     */
    void simulateCrashUnlinking(final long row)
    {
        lock();
        setHead(row, next(head(row) - 1));
        state.putLongPlain(NEWEST, 0); // and a half-moved recency list
    }

    private long head(final long row)
    {
        return PackedCells.getFieldPlain(vector, row * rowBits, bucketIndexBits);
    }

    private void setHead(final long row, final long bucketPlusOne)
    {
        PackedCells.setFieldPlain(vector, row * rowBits, bucketIndexBits, bucketPlusOne);
    }

    private long older(final long row)
    {
        return PackedCells.getFieldPlain(vector, row * rowBits + bucketIndexBits, rowIndexBits);
    }

    private void setOlder(final long row, final long rowPlusOne)
    {
        PackedCells.setFieldPlain(vector, row * rowBits + bucketIndexBits, rowIndexBits, rowPlusOne);
    }

    private long newer(final long row)
    {
        return PackedCells.getFieldPlain(vector, row * rowBits + bucketIndexBits + rowIndexBits, rowIndexBits);
    }

    private void setNewer(final long row, final long rowPlusOne)
    {
        PackedCells.setFieldPlain(vector, row * rowBits + bucketIndexBits + rowIndexBits, rowIndexBits, rowPlusOne);
    }

    private long signatureOf(final long bucket)
    {
        return PackedCells.getFieldPlain(buckets, bucket * bucketBits, signatureBits);
    }

    private void setSignature(final long bucket, final long signature)
    {
        PackedCells.setFieldPlain(buckets, bucket * bucketBits, signatureBits, signature);
    }

    private long next(final long bucket)
    {
        return PackedCells.getFieldPlain(buckets, bucket * bucketBits + signatureBits, bucketIndexBits);
    }

    private void setNext(final long bucket, final long bucketPlusOne)
    {
        PackedCells.setFieldPlain(buckets, bucket * bucketBits + signatureBits, bucketIndexBits, bucketPlusOne);
    }
}
