package io.ddf.engine.window;

import io.ddf.engine.hash.Fingerprint;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.PackedCells;
import io.ddf.engine.memory.SeqLock;
import io.ddf.engine.spi.FilterCore;

/**
 * The exact windowed filter (sliding-window paper Th. 1) and the Short Hash Filter (Alg. 1): a ring Q of the last w
 * keys and a counting dictionary D (key → occurrences in Q). {@code stream} answers DUPLICATE iff D holds the element's
 * key, then pushes the key, and once Q holds w keys pops the oldest and decrements (deletes at 0) its count: the
 * verdict compares the element against exactly the w elements before it.
 *
 * <p>Keys: the exact filter stores the element's whole 64-bit hash, so it errs only when two distinct elements in
 * one window share a 64-bit hash (probability about w²/2^65 per window: negligible); SHF stores an f-bit
 * {@link Fingerprint fingerprint}, hence its false positives (Th. 3).
 *
 * <p>Concurrency: a {@code stream} runs under the region's {@link SeqLock}, so it is atomic per element (two
 * threads streaming the same new element never both get UNSEEN), and streams are serialised. {@code contains} takes
 * no lock and writes nothing: it retries until it read a state no writer touched. A process killed mid-update
 * leaves the lock held; {@link #recover()} rebuilds D from Q (the ring and n define the window) and frees it.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
final class RingCountCore implements FilterCore
{
    private final MappedWords region;
    private final SeqLock lock;
    private final FingerprintRing ring;
    private final CountingTable counts;
    private final long window;
    /** f, or 0 for the exact filter's whole hashes. */
    private final int fingerprintBits;
    private final long fingerprintMask;

    /**
     * @param region          the kind's region, laid out as {@link WindowRegion} says.
     * @param window          w.
     * @param fingerprintBits f for SHF, 0 for the exact filter.
     * @param cells           T, the counting table's cells.
     */
    RingCountCore(final MappedWords region, final long window, final int fingerprintBits, final long cells)
    {
        this.region = region;
        this.window = window;
        this.fingerprintBits = fingerprintBits;
        this.fingerprintMask = PackedCells.mask(fingerprintBits);
        final int keyBits = fingerprintBits == 0 ? 64 : fingerprintBits;
        this.lock = new SeqLock(region, WindowRegion.LOCK);
        final long ringWords = WindowRegion.lineWords(FingerprintRing.words(window, keyBits));
        this.ring = new FingerprintRing(region.slice(WindowRegion.STATE_WORDS, ringWords), window, keyBits);
        this.counts = new CountingTable(
            region.slice(WindowRegion.STATE_WORDS + ringWords, CountingTable.words(cells, keyBits, window)),
            cells, keyBits, window);
    }

    /**
     * @param window          w.
     * @param fingerprintBits f, or 0 for whole hashes.
     * @param cells           T.
     * @return words of region the core needs.
     */
    static long words(final long window, final int fingerprintBits, final long cells)
    {
        final int keyBits = fingerprintBits == 0 ? 64 : fingerprintBits;
        return WindowRegion.STATE_WORDS + WindowRegion.lineWords(FingerprintRing.words(window, keyBits)) +
            WindowRegion.lineWords(CountingTable.words(cells, keyBits, window));
    }

    private long key(final long hash)
    {
        return fingerprintBits == 0 ? hash : Fingerprint.nonZero(hash, fingerprintMask);
    }

    @Override
    public boolean stream(final long hash)
    {
        final long key = key(hash);
        final long locked = lock.lockAcquire();
        try
        {
            final boolean duplicate = counts.contains(key);
            final long n = region.getLongPlain(WindowRegion.INSERTIONS);
            final long slot = n % window;
            if (n >= window)
            {
                counts.decrement(ring.get(slot));
            }
            ring.set(slot, key);
            counts.increment(key);
            region.putLongPlain(WindowRegion.INSERTIONS, n + 1);
            return duplicate;
        }
        finally
        {
            lock.unlockRelease(locked);
        }
    }

    @Override
    public boolean contains(final long hash)
    {
        final long key = key(hash);
        while (true)
        {
            final long begin = lock.readBeginAcquire();
            final boolean duplicate = counts.contains(key);
            if (lock.readValidAcquire(begin))
            {
                return duplicate;
            }
        }
    }

    @Override
    public void clear()
    {
        region.clear();
    }

    /** After a crash mid-update: D may disagree with Q, so it is rebuilt from Q, and the lock freed. */
    @Override
    public void recover()
    {
        if (!lock.isLockedVolatile())
        {
            return;
        }
        counts.clear();
        final long n = region.getLongPlain(WindowRegion.INSERTIONS);
        final long size = Math.min(n, window);
        for (long slot = 0; slot < size; slot++)
        {
            counts.increment(ring.get(slot));
        }
        lock.recoverRelease();
    }
}
