package io.ddf.engine.quotient;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.LockWord;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;

/**
 * Dynamic SQF (SQF paper §5.1): SQF's rows become a vector V of R chains of buckets allocated on demand from a
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
 * <p>Concurrency: every row's update also moves the shared recency list, so the whole structure ({@link DsqfLinks})
 * has one writer lock ({@link LockWord} bit 0 of state word 0) taken by {@code stream} and {@code contains} alike:
 * atomic per element, one thread at a time. A process killed while holding it leaves the bit set and possibly a
 * half-made update (a bucket unlinked from one row and not yet linked to the other, a row half moved in the recency
 * list); {@link #recover()} relinks what it can, returns unreachable buckets to the free list ({@link DsqfRepair}),
 * and clears the lock.
 *
 * <p>In single-writer mode the table's updates are plain and release stores, but the writer lock stays a locked
 * compare-and-swap (uncontended, one per element): the rows and the recency list are linked through the pool, and a
 * second thread misusing the filter without the lock would not just lose an element but break links, sending a
 * later eviction outside the pool (SingleWriterMisuseTest found an index of -1 there).
 *
 * <p>The SQF paper: S. Dutta, A. Narang and S. K. Bera, "Streaming Quotient Filter: A Near Optimal Approximate
 * Duplicate Detection Approach for Data Streams", PVLDB 6(8), 2013.
 */
final class DynamicSqfCore implements FilterCore
{
    /** The writer lock's bit in state word {@link DsqfLinks#LOCK}. */
    private static final long LOCK_BIT = 1L;
    private static final long EVICTION_SALT = 0x94D049BB133111EBL;

    private final MappedWords region;
    /** State word {@link DsqfLinks#LOCK} alone, shared in either mode (see the class comment). */
    private final MappedWords lockWord;
    /** The rows' chains, the pool and the recency list. */
    private final DsqfLinks links;
    private final long rows;
    private final CellFunction signatures;

    DynamicSqfCore(final DsqfLayout layout, final int remainderBits, final int reducedBits, final MappedWords region)
    {
        this.region = region;
        this.lockWord = region.sharedSlice(DsqfLinks.LOCK, 1);
        this.links = new DsqfLinks(layout, region);
        this.rows = layout.rows();
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
                links.makeNewest(row);
                return true;
            }
            final long bucket = allocate(row, hash);
            final long first = links.head(row);
            links.setSignature(bucket, signature);
            links.setNext(bucket, first);
            links.setHead(row, bucket + 1);
            if (first == 0)
            {
                links.append(row);
            }
            else
            {
                links.makeNewest(row);
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
        if (LockWord.isLockedVolatile(links.state, DsqfLinks.LOCK, LOCK_BIT))
        {
            DsqfRepair.repair(links);
            LockWord.recoverRelease(links.state, DsqfLinks.LOCK, LOCK_BIT);
        }
    }

    /**
     * After a power cut the links may join pages of different moments (a bucket on two rows' chains, a chain into a
     * bucket freed since) with no update half made: the links are rebuilt whatever the lock says.
     */
    @Override
    public void recoverTorn()
    {
        DsqfRepair.repair(links);
        if (LockWord.isLockedVolatile(links.state, DsqfLinks.LOCK, LOCK_BIT))
        {
            LockWord.recoverRelease(links.state, DsqfLinks.LOCK, LOCK_BIT);
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
     * SQF's signature (SQF paper Alg. 1): reduced remainder, then Hamming weight of the remainder.
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
        for (long b = links.head(row); b != 0; b = links.next(b - 1))
        {
            if (links.signatureOf(b - 1) == signature)
            {
                return true;
            }
        }
        return false;
    }

    /** A bucket for a new signature of row: from the free list, the never-used pool, or by eviction. */
    private long allocate(final long row, final long hash)
    {
        final long free = links.state.getLongPlain(DsqfLinks.FREE);
        if (free != 0)
        {
            links.state.putLongPlain(DsqfLinks.FREE, links.next(free - 1));
            return free - 1;
        }
        final long allocated = links.state.getLongPlain(DsqfLinks.ALLOCATED);
        if (allocated < links.pool)
        {
            links.state.putLongPlain(DsqfLinks.ALLOCATED, allocated + 1);
            return allocated;
        }
        if (links.head(row) != 0)
        {
            links.makeNewest(row); // this access is the most recent: the victim is another row's bucket when there is one
        }
        links.state.putLongPlain(DsqfLinks.EVICTIONS, links.state.getLongPlain(DsqfLinks.EVICTIONS) + 1);
        return evict(links.state.getLongPlain(DsqfLinks.OLDEST) - 1, hash);
    }

    /** Unlinks a bucket chosen uniformly in row's chain; the row leaves the recency list when it empties. */
    private long evict(final long row, final long hash)
    {
        long length = 0;
        for (long b = links.head(row); b != 0; b = links.next(b - 1))
        {
            length++;
        }
        final long chosen = Mix.reduce(Mix.mix64(hash ^ EVICTION_SALT), length);
        long previous = -1;
        long bucket = links.head(row) - 1;
        for (long i = 0; i < chosen; i++)
        {
            previous = bucket;
            bucket = links.next(bucket) - 1;
        }
        if (previous < 0)
        {
            links.setHead(row, links.next(bucket));
        }
        else
        {
            links.setNext(previous, links.next(bucket));
        }
        if (links.head(row) == 0)
        {
            links.unlinkRow(row);
        }
        return bucket;
    }

    /** @return hard collisions so far. */
    long evictions()
    {
        return links.state.getLongVolatile(DsqfLinks.EVICTIONS);
    }

    /** @return P. */
    long pool()
    {
        return links.pool;
    }
}
