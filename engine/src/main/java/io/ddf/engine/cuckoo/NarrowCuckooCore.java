package io.ddf.engine.cuckoo;

import io.ddf.engine.memory.MappedWords;

/**
 * Cuckoo filter whose buckets fit in one 64-bit word (b·f ≤ 64), several buckets to a word when they fit.
 *
 * <p>{@code stream} reads the version, then the two candidate words. A hit is DUPLICATE with no write. A miss
 * with a free slot in i1 (else i2) installs the fingerprint with one compare-and-swap of the word read, after
 * checking that no relocation overlapped the reads; any conflict restarts the decision. Only when both buckets
 * are full does it take the table lock (relocation, see {@link CuckooCore}). Element atomicity follows from this
 * and from buckets never losing a fingerprint outside relocations: a bucket seen full stays full, so two threads
 * inserting the same element cannot pick different buckets from consistent views without one seeing the other's.
 *
 * <p>The kick loop keeps its shifts and masks written out rather than {@code memory.PackedCells.get/with}: with
 * them, saturated streams measured 6.0–7.1 µs against 5.3–6.3 µs before in 6 interleaved runs (thread CPU time,
 * both versions in one JVM); the difference may be JIT noise (another variant measured mixed), but this loop is
 * where the time of a full cuckoo filter goes, so it stays as measured safe.
 */
final class NarrowCuckooCore extends CuckooCore
{
    private final int bucketsPerWord;
    private final int bucketBits;
    private final long bucketMask;
    /** log2 of buckets per word when a power of two (word = bucket >>> wordShift), else −1. */
    private final int wordShift;
    /** ⌈2^64 / buckets per word⌉ when not a power of two (word = its product's high half with the bucket). */
    private final long wordReciprocal;

    NarrowCuckooCore(final CuckooLayout layout, final int maxKicks, final MappedWords region)
    {
        super(layout, maxKicks, region);
        this.bucketsPerWord = layout.bucketsPerWord();
        this.bucketBits = slots * fingerprintBits;
        this.bucketMask = bucketBits == 64 ? -1L : (1L << bucketBits) - 1;
        final boolean powerOfTwo = Integer.bitCount(bucketsPerWord) == 1;
        this.wordShift = powerOfTwo ? Integer.numberOfTrailingZeros(bucketsPerWord) : -1;
        this.wordReciprocal = powerOfTwo ? 0 : reciprocal(bucketsPerWord);
    }

    /**
     * @param divisor a divisor in 3..64, not a power of two.
     * @return ⌈2^64 / divisor⌉, below 2^63.
     */
    static long reciprocal(final int divisor)
    {
        return Long.divideUnsigned(-1L, divisor) + 1;
    }

    /**
     * Division by a small constant as a multiplication (Lemire, Kaser &amp; Kurz 2019, "Faster remainder by direct
     * computation", theorem 1): with c = ⌈2^64 / d⌉, ⌊n·c / 2^64⌋ = ⌊n / d⌋ for every n &lt; 2^(64 − ⌈log2 d⌉), so for
     * every bucket index (below 2^43 ≤ 2^58) and d ≤ 64. A 64-bit division costs tens of cycles per displacement.
     *
     * @param n          a non-negative value below 2^58.
     * @param reciprocal {@link #reciprocal(int)} of the divisor.
     * @return n / divisor.
     */
    static long divide(final long n, final long reciprocal)
    {
        return Math.multiplyHigh(n, reciprocal);
    }

    @Override
    public boolean stream(final long hash)
    {
        final long fp = fingerprint(hash);
        final long i1 = firstBucket(hash);
        final long i2 = alternate(i1, fp);
        final long index1 = wordOf(i1);
        final int shift1 = shiftOf(i1, index1);
        final long index2 = wordOf(i2);
        final int shift2 = shiftOf(i2, index2);
        while (true)
        {
            final long version = lock.readBeginAcquire();
            final long word1 = table.getLongVolatile(index1);
            final long word2 = index2 == index1 ? word1 : table.getLongVolatile(index2);
            final long bucket1 = (word1 >>> shift1) & bucketMask;
            final long bucket2 = (word2 >>> shift2) & bucketMask;
            if (find(bucket1, fp) || find(bucket2, fp))
            {
                return true;
            }
            if (!lock.readValidAcquire(version))
            {
                continue; // a relocation overlapped the reads: the element may have been in hand
            }
            int free = freeSlot(bucket1);
            if (free >= 0)
            {
                if (table.compareAndSetLong(index1, word1, word1 | fp << (shift1 + free * fingerprintBits)))
                {
                    return false;
                }
                continue;
            }
            // A full first bucket sends the insertion to the lock even when the second has room: a CF.DEL (under
            // the lock) may empty a slot of the first bucket between this thread's check and its compare-and-swap
            // of the second, and another thread streaming the same element could then put it in the first. Every
            // lock-free insertion of an element goes to the same word, where compare-and-swap orders them.
            if (tryLock(version))
            {
                // The version advances exactly when it did while a free slot of i2 was filled without the lock:
                // when both buckets were full (and always after a relocation), so files and their bytes stay the same.
                boolean advance = freeSlot(bucket2) < 0;
                try
                {
                    if (holds(i1, fp) || holds(i2, fp))
                    {
                        return true;
                    }
                    if (placeIfFree(i1, fp) || placeIfFree(i2, fp))
                    {
                        return false;
                    }
                    advance = true;
                    relocate(hash, fp, i1, i2);
                    return false;
                }
                finally
                {
                    if (advance)
                    {
                        unlock(version);
                    }
                    else
                    {
                        unlockUnchanged(version);
                    }
                }
            }
        }
    }

    /**
     * {@link CuckooCore#relocate}'s displacements, fused: a step swaps the hand into the victim slot of the word it
     * read when trying that bucket, so each word is located and read once per step instead of once to place and
     * once to replace. Every write is still a compare-and-swap of the word read, re-read and redone on failure:
     * lock-free insertions may fill free slots of the same words meanwhile (they never empty one, so a bucket seen
     * full stays full).
     */
    @Override
    void relocate(final long hash, final long fp, final long i1, final long i2)
    {
        final int maxKicks = maxKicks();
        long hand = fp;
        long bucket = firstVictimBucket(hash, i1, i2);
        long index = wordOf(bucket);
        int shift = shiftOf(bucket, index);
        long word = table.getLongVolatile(index);
        int kick = 0;
        boolean placed = false;
        displacing:
        while (kick < maxKicks)
        {
            kick++;
            final int at = shift + victimSlot(hash, kick) * fingerprintBits;
            long victim = (word >>> at) & fingerprintMask;
            // Swapping a fingerprint for an equal one would write the same word: skip the compare-and-swap.
            while (victim != hand
                && !table.compareAndSetLong(index, word, (word & ~(fingerprintMask << at)) | hand << at))
            {
                word = table.getLongVolatile(index);
                victim = (word >>> at) & fingerprintMask;
            }
            hand = victim;
            bucket = alternate(bucket, hand);
            index = wordOf(bucket);
            shift = shiftOf(bucket, index);
            word = table.getLongVolatile(index);
            for (int free = freeSlot((word >>> shift) & bucketMask); free >= 0;
                free = freeSlot((word >>> shift) & bucketMask))
            {
                if (table.compareAndSetLong(index, word, word | hand << (shift + free * fingerprintBits)))
                {
                    placed = true;
                    break displacing;
                }
                word = table.getLongVolatile(index);
            }
        }
        if (!placed && hand == fp && (bucket == i1 || bucket == i2))
        {
            kick++;
            replace(bucket, victimSlot(hash, kick), hand);
        }
        countRelocation(kick, placed);
    }

    @Override
    boolean holds(final long bucket, final long fp)
    {
        final long index = wordOf(bucket);
        return find((table.getLongVolatile(index) >>> shiftOf(bucket, index)) & bucketMask, fp);
    }

    @Override
    boolean placeIfFree(final long bucket, final long fp)
    {
        final long index = wordOf(bucket);
        final int shift = shiftOf(bucket, index);
        while (true)
        {
            final long word = table.getLongVolatile(index);
            final int free = freeSlot((word >>> shift) & bucketMask);
            if (free < 0)
            {
                return false;
            }
            if (table.compareAndSetLong(index, word, word | fp << (shift + free * fingerprintBits)))
            {
                return true;
            }
        }
    }

    @Override
    long replace(final long bucket, final int slot, final long fp)
    {
        final long index = wordOf(bucket);
        final int shift = shiftOf(bucket, index) + slot * fingerprintBits;
        while (true)
        {
            final long word = table.getLongVolatile(index);
            final long old = (word >>> shift) & fingerprintMask;
            if (table.compareAndSetLong(index, word, (word & ~(fingerprintMask << shift)) | fp << shift))
            {
                return old;
            }
        }
    }

    @Override
    long slot(final long bucket, final int slot)
    {
        final long index = wordOf(bucket);
        return (table.getLongVolatile(index) >>> (shiftOf(bucket, index) + slot * fingerprintBits)) & fingerprintMask;
    }

    private long wordOf(final long bucket)
    {
        return wordShift >= 0 ? bucket >>> wordShift : divide(bucket, wordReciprocal);
    }

    private int shiftOf(final long bucket, final long index)
    {
        return (int)(bucket - index * bucketsPerWord) * bucketBits;
    }

    private boolean find(final long bucket, final long fp)
    {
        for (int i = 0, shift = 0; i < slots; i++, shift += fingerprintBits)
        {
            if (((bucket >>> shift) & fingerprintMask) == fp)
            {
                return true;
            }
        }
        return false;
    }

    private int freeSlot(final long bucket)
    {
        for (int i = 0, shift = 0; i < slots; i++, shift += fingerprintBits)
        {
            if (((bucket >>> shift) & fingerprintMask) == 0)
            {
                return i;
            }
        }
        return -1;
    }
}
