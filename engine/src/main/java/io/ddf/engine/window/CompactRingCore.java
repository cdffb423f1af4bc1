package io.ddf.engine.window;

import io.ddf.engine.hash.Fingerprint;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.PackedCells;
import io.ddf.engine.memory.SeqLock;
import io.ddf.engine.spi.FilterCore;

/**
 * The Compact Short Hash Filter (sliding-window paper §3.2): only the ring Q of the last w fingerprints of f bits, no
 * dictionary.
 * {@code stream} answers DUPLICATE iff Q holds the element's fingerprint, found by a linear scan of Q (O(w), several
 * fingerprints compared per word), then overwrites the oldest slot with it.
 *
 * <p>Concurrency: a {@code stream} (scan and write) runs under the region's {@link SeqLock}: atomic per element, and
 * streams are serialised, each holding the lock for a whole O(w) scan. {@code contains} scans without a lock and
 * writes nothing, retrying if a writer ran meanwhile. A process killed mid-update leaves at most one slot
 * rewritten ahead of n, which is still a window of w recent fingerprints; {@link #recover()} frees the lock.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
final class CompactRingCore implements FilterCore
{
    private final MappedWords region;
    private final SeqLock lock;
    private final FingerprintRing ring;
    private final long window;
    private final long fingerprintMask;

    /**
     * @param region          the kind's region, laid out as {@link WindowRegion} says (no table).
     * @param window          w.
     * @param fingerprintBits f.
     */
    CompactRingCore(final MappedWords region, final long window, final int fingerprintBits)
    {
        this.region = region;
        this.window = window;
        this.fingerprintMask = PackedCells.mask(fingerprintBits);
        this.lock = new SeqLock(region, WindowRegion.LOCK);
        this.ring = new FingerprintRing(
            region.slice(WindowRegion.STATE_WORDS, FingerprintRing.words(window, fingerprintBits)),
            window, fingerprintBits);
    }

    /**
     * @param window          w.
     * @param fingerprintBits f.
     * @return words of region the core needs.
     */
    static long words(final long window, final int fingerprintBits)
    {
        return WindowRegion.STATE_WORDS + WindowRegion.lineWords(FingerprintRing.words(window, fingerprintBits));
    }

    @Override
    public boolean stream(final long hash)
    {
        final long fingerprint = Fingerprint.nonZero(hash, fingerprintMask);
        final long locked = lock.lockAcquire();
        try
        {
            final boolean duplicate = ring.scan(fingerprint);
            final long n = region.getLongPlain(WindowRegion.INSERTIONS);
            ring.set(n % window, fingerprint);
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
        final long fingerprint = Fingerprint.nonZero(hash, fingerprintMask);
        while (true)
        {
            final long begin = lock.readBeginAcquire();
            final boolean duplicate = ring.scan(fingerprint);
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

    @Override
    public void recover()
    {
        lock.recoverRelease();
    }
}
