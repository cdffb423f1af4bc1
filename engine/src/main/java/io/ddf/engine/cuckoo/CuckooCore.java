package io.ddf.engine.cuckoo;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.hash.Fingerprint;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.SeqLock;
import io.ddf.engine.spi.CountingCore;

/**
 * The streaming cuckoo filter (Fan et al. 2014, adapted for unbounded streams as in the QHT paper footnote 4): n
 * buckets of b slots holding f-bit fingerprints (0 marks an empty slot, so a zero fingerprint is re-derived). An
 * element has two candidate buckets, i1 = h(x) and i2 = (h(fp) − i1) mod n; this form of the partner is an involution
 * for any n (i1 = (h(fp) − i2) mod n), so the table uses all the memory given instead of a power-of-two bucket count.
 * DUPLICATE when either bucket holds the fingerprint. Otherwise the fingerprint goes into a free slot of i1, else
 * of i2; when both are full, it displaces a victim from one of them, which moves to its own partner bucket,
 * displacing another when that one is full too, up to max-kicks displacements; the last victim is then dropped
 * (the streaming adaptation: no failure, the filter forgets one fingerprint). One deviation: when that last victim
 * is the new element's own fingerprint headed back to one of its buckets, it displaces one more victim there,
 * which is dropped instead, so that an element is always present right after its own insertion (max-kicks 0
 * thus means: a full pair of buckets drops a victim chosen in one of them, as SQF does in a full row).
 *
 * <p>Which bucket is kicked from and which slot is the victim at each step are derived from the element's hash and
 * the step number, so the same file and stream give the same verdicts.
 *
 * <p>Concurrency: word 0 of the region is a {@link SeqLock}, the table lock and version (odd while locked).
 * Relocations run under the lock, so at most one fingerprint is ever "in hand" (in no bucket); lookups that miss
 * read the version before and after and retry when a relocation overlapped them, so a fingerprint in hand is never
 * missed. The subclasses say
 * how an insertion without relocation proceeds. With both, a concurrent {@code stream} is atomic per element:
 * threads streaming the same new element never both get UNSEEN (unless it is dropped in between).
 *
 * <p>{@link #add} (a copy even when present) and {@link #delete} run under the table lock, so a deletion, the one
 * write that empties a slot outside relocations, is never interleaved with a relocation and always changes the
 * version; {@link #count} reads both buckets between two equal versions.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
abstract class CuckooCore implements CountingCore
{
    /** State word: the table lock (odd = held) and version (+2 per locked update). */
    static final int LOCK = 0;
    /** State word: fingerprints displaced so far (statistics, written under the lock). */
    static final int KICKS = 1;
    /** State word: fingerprints dropped after max-kicks displacements (statistics, written under the lock). */
    static final int DROPS = 2;
    /**
     * State word: copies deleted (written under the lock). Files made before deletion existed hold 0 here: the
     * state line's unused words were always zero.
     */
    static final int DELETES = 3;

    /** Largest fingerprint width whose partner offsets are tabulated (2^12 longs, 32 KiB). */
    static final int PARTNER_TABLE_MAX_BITS = 12;

    private static final long ALTERNATE_SALT = 0xC2B2AE3D27D4EB4FL;
    private static final long VICTIM_SALT = 0x165667B19E3779F9L;

    protected final MappedWords state;
    protected final SeqLock lock;
    protected final MappedWords table;
    protected final int slots;
    protected final int fingerprintBits;
    protected final long fingerprintMask;

    private final long buckets;
    private final int maxKicks;
    /** h(fp) reduced onto the buckets for every fingerprint, or null for wide fingerprints (derived, on heap). */
    private final long[] partnerOffsets;

    CuckooCore(final CuckooLayout layout, final int maxKicks, final MappedWords region)
    {
        this.state = region.slice(0, CuckooLayout.STATE_WORDS);
        this.table = region.slice(CuckooLayout.STATE_WORDS, layout.tableWords());
        this.lock = new SeqLock(state, LOCK);
        this.buckets = layout.buckets();
        this.slots = layout.slots();
        this.fingerprintBits = layout.fingerprintBits();
        this.fingerprintMask = (1L << fingerprintBits) - 1;
        this.maxKicks = maxKicks;
        // Relocation computes a partner bucket per displacement: a lookup is cheaper than a mix and a reduction.
        this.partnerOffsets = fingerprintBits <= PARTNER_TABLE_MAX_BITS ? new long[1 << fingerprintBits] : null;
        if (partnerOffsets != null)
        {
            for (int fp = 0; fp < partnerOffsets.length; fp++)
            {
                partnerOffsets[fp] = partnerOffset(fp);
            }
        }
    }

    /**
     * @param bucket a bucket index.
     * @param fp     a non-zero fingerprint.
     * @return whether the bucket holds it (volatile reads).
     */
    abstract boolean holds(long bucket, long fp);

    /**
     * Puts the fingerprint into a free slot of the bucket, retrying its compare-and-swap on conflict.
     *
     * @param bucket a bucket index.
     * @param fp     a non-zero fingerprint.
     * @return false when the bucket has no free slot.
     */
    abstract boolean placeIfFree(long bucket, long fp);

    /**
     * Replaces a slot's fingerprint, retrying its compare-and-swap on conflict. Only called under the lock, on a
     * full bucket.
     *
     * @param bucket a bucket index.
     * @param slot   a slot index in 0..b−1.
     * @param fp     the fingerprint to install.
     * @return the fingerprint it replaced.
     */
    abstract long replace(long bucket, int slot, long fp);

    /**
     * @param bucket a bucket index.
     * @param slot   a slot index in 0..b−1.
     * @return the fingerprint in the slot, 0 when empty.
     */
    abstract long slot(long bucket, int slot);

    @Override
    public final boolean contains(final long hash)
    {
        final long fp = fingerprint(hash);
        final long i1 = firstBucket(hash);
        final long i2 = alternate(i1, fp);
        while (true)
        {
            final long version = lock.readBeginAcquire();
            if (holds(i1, fp) || holds(i2, fp))
            {
                return true;
            }
            if (lock.readValidAcquire(version))
            {
                return false;
            }
        }
    }

    @Override
    public final void add(final long hash)
    {
        final long fp = fingerprint(hash);
        final long i1 = firstBucket(hash);
        final long i2 = alternate(i1, fp);
        final long version = lockTable();
        try
        {
            if (!placeIfFree(i1, fp) && !placeIfFree(i2, fp))
            {
                relocate(hash, fp, i1, i2);
            }
        }
        finally
        {
            unlock(version);
        }
    }

    @Override
    public final boolean delete(final long hash)
    {
        final long fp = fingerprint(hash);
        final long i1 = firstBucket(hash);
        final long i2 = alternate(i1, fp);
        while (true)
        {
            final long version = lock.readBeginAcquire();
            if (!holds(i1, fp) && !holds(i2, fp))
            {
                if (lock.readValidAcquire(version))
                {
                    return false;
                }
                continue; // a relocation overlapped the reads: the fingerprint may have been in hand
            }
            if (tryLock(version))
            {
                try
                {
                    // Nothing was written under the lock since the reads, and lock-free writes only fill empty
                    // slots, so the fingerprint seen is still in one of the buckets.
                    final boolean removed = removeOne(i1, fp) || removeOne(i2, fp);
                    if (removed)
                    {
                        state.putLongRelease(DELETES, state.getLongPlain(DELETES) + 1);
                    }
                    return removed;
                }
                finally
                {
                    unlock(version);
                }
            }
        }
    }

    @Override
    public final int count(final long hash)
    {
        final long fp = fingerprint(hash);
        final long i1 = firstBucket(hash);
        final long i2 = alternate(i1, fp);
        while (true)
        {
            final long version = lock.readBeginAcquire();
            final int count = countIn(i1, fp) + (i2 != i1 ? countIn(i2, fp) : 0);
            if (lock.readValidAcquire(version))
            {
                return count;
            }
        }
    }

    @Override
    public final long deletions()
    {
        return state.getLongVolatile(DELETES);
    }

    /** @return the even version the table lock was taken at (spins while another thread holds it). */
    private long lockTable()
    {
        while (true)
        {
            final long version = lock.readBeginAcquire();
            if (tryLock(version))
            {
                return version;
            }
        }
    }

    /** Under the lock: empties the first slot of the bucket holding the fingerprint. */
    private boolean removeOne(final long bucket, final long fp)
    {
        for (int s = 0; s < slots; s++)
        {
            if (slot(bucket, s) == fp)
            {
                replace(bucket, s, 0);
                return true;
            }
        }
        return false;
    }

    private int countIn(final long bucket, final long fp)
    {
        int count = 0;
        for (int s = 0; s < slots; s++)
        {
            count += slot(bucket, s) == fp ? 1 : 0;
        }
        return count;
    }

    @Override
    public final void clear()
    {
        state.clear();
        table.clear();
    }

    /** After a crash mid-relocation: releases the lock (the fingerprint that was in hand is lost). */
    @Override
    public final void recover()
    {
        lock.recoverRelease();
    }

    /**
     * @param hash an element's hash.
     * @return its f-bit fingerprint, never 0.
     */
    final long fingerprint(final long hash)
    {
        return Fingerprint.nonZero(hash, fingerprintMask);
    }

    /**
     * @param hash an element's hash.
     * @return its first candidate bucket i1.
     */
    final long firstBucket(final long hash)
    {
        return Mix.reduce(hash, buckets);
    }

    /**
     * @param bucket one candidate bucket of a fingerprint.
     * @param fp     the fingerprint.
     * @return the other, (h(fp) − bucket) mod n.
     */
    final long alternate(final long bucket, final long fp)
    {
        final long other = (partnerOffsets != null ? partnerOffsets[(int)fp] : partnerOffset(fp)) - bucket;
        return other < 0 ? other + buckets : other;
    }

    /** @return h(fp): the fingerprint's hash reduced onto the buckets. */
    private long partnerOffset(final long fp)
    {
        return Mix.reduce(Mix.mix64(fp ^ ALTERNATE_SALT), buckets);
    }

    /**
     * @param version the even version read before deciding.
     * @return whether the lock was taken (false when another thread updated under it since).
     */
    final boolean tryLock(final long version)
    {
        return lock.tryLockAcquire(version);
    }

    /**
     * @param version the version {@link #tryLock} was given.
     */
    final void unlock(final long version)
    {
        lock.unlockRelease(version + 1);
    }

    /**
     * Releases the lock without advancing the version: the holder wrote nothing or only filled a free slot.
     *
     * @param version the version {@link #tryLock} was given.
     */
    final void unlockUnchanged(final long version)
    {
        lock.unlockUnchangedRelease(version + 1);
    }

    /**
     * Inserts under the lock: a fresh lookup, a free slot in either bucket, else relocation.
     *
     * @return true when the element turned out to be present (DUPLICATE).
     */
    final boolean insertLocked(final long hash, final long fp, final long i1, final long i2)
    {
        if (holds(i1, fp) || holds(i2, fp))
        {
            return true;
        }
        if (!placeIfFree(i1, fp) && !placeIfFree(i2, fp))
        {
            relocate(hash, fp, i1, i2);
        }
        return false;
    }

    /**
     * Displaces victims from bucket to partner bucket until one lands in a free slot or max-kicks run out; the last
     * victim is then dropped, except when it is the new element's fingerprint coming back to one of its own buckets:
     * it then displaces one more victim there, which is dropped instead, so an element is always present right after
     * its own insertion. At most max-kicks + 1 displacements. Called under the lock with both buckets full;
     * subclasses may override it with a faster equivalent that makes the same displacements.
     */
    void relocate(final long hash, final long fp, final long i1, final long i2)
    {
        long hand = fp;
        long bucket = firstVictimBucket(hash, i1, i2);
        int kick = 0;
        boolean placed = false;
        while (kick < maxKicks)
        {
            kick++;
            hand = replace(bucket, victimSlot(hash, kick), hand);
            bucket = alternate(bucket, hand);
            if (placeIfFree(bucket, hand))
            {
                placed = true;
                break;
            }
        }
        if (!placed && hand == fp && (bucket == i1 || bucket == i2))
        {
            kick++;
            replace(bucket, victimSlot(hash, kick), hand);
        }
        countRelocation(kick, placed);
    }

    /** @return the bucket of the first displacement: i1 or i2, chosen by the hash. */
    final long firstVictimBucket(final long hash, final long i1, final long i2)
    {
        return (Mix.mix64(hash ^ VICTIM_SALT) & 1) == 0 ? i1 : i2;
    }

    /** @return the slot displaced at the given displacement (1-based) of the element with this hash. */
    final int victimSlot(final long hash, final int kick)
    {
        return slots == 1 ? 0 : (int)Mix.reduce(Mix.mix64((hash + kick * Mix.GOLDEN_GAMMA) ^ VICTIM_SALT), slots);
    }

    /** Adds a relocation to the statistics (under the lock). */
    final void countRelocation(final int kicks, final boolean placed)
    {
        state.putLongPlain(KICKS, state.getLongPlain(KICKS) + kicks);
        if (!placed)
        {
            state.putLongPlain(DROPS, state.getLongPlain(DROPS) + 1);
        }
    }

    /** @return fingerprints displaced so far. */
    final long kicks()
    {
        return state.getLongVolatile(KICKS);
    }

    /** @return fingerprints dropped so far. */
    final long drops()
    {
        return state.getLongVolatile(DROPS);
    }

    /** @return number of buckets n. */
    final long buckets()
    {
        return buckets;
    }

    /** @return max-kicks. */
    final int maxKicks()
    {
        return maxKicks;
    }

    /** @return non-empty slots in the whole table (a full scan, for tests). */
    final long storedFingerprints()
    {
        long stored = 0;
        for (long b = 0; b < buckets; b++)
        {
            for (int s = 0; s < slots; s++)
            {
                stored += slot(b, s) != 0 ? 1 : 0;
            }
        }
        return stored;
    }
}
