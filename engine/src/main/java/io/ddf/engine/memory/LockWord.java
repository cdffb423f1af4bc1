package io.ddf.engine.memory;

import io.ddf.engine.MappedWords;

/**
 * A spin lock on one bit of a word in mapped memory; the word's other bits belong to the owner (cells of a row, a
 * version counter, or nothing). The one lock-bit protocol of the engine: the wide quotient rows (bit 63 of a row's
 * first word), the Dynamic SQF writer lock (bit 0 of state word 0) and, through {@link SeqLock}, the cuckoo table
 * lock and the window regions' lock.
 *
 * <ul>
 *   <li>acquire: read the word (volatile); if the bit is clear, compare-and-swap it to the same word with the bit
 *       set; else spin. The compare-and-swap orders the guarded reads and writes after it.</li>
 *   <li>release: one ordered (release) store of the word with the bit cleared, so every write made under the lock
 *       is visible before the bit clears.</li>
 * </ul>
 *
 * <p>Recover idiom (one for every lock in the engine): the bit lives in the file, so a process killed while
 * holding the lock leaves it set. When the file is reopened under its exclusive writer lock no live thread can
 * hold it, so a set bit means a dead writer: the owner repairs what the lock guarded (or accepts the half-made
 * update, as its atomicity note says), then releases the lock exactly as the dead writer's release would have
 * ({@link #recoverRelease}). Never call it while another thread may use the region.
 */
public final class LockWord
{
    private final MappedWords words;
    private final long lockBit;

    /**
     * @param words   the region holding the lock words.
     * @param lockBit the lock's bit, a single bit (e.g. {@code 1L << 63} or {@code 1L}).
     */
    public LockWord(final MappedWords words, final long lockBit)
    {
        if (Long.bitCount(lockBit) != 1)
        {
            throw new IllegalArgumentException("lock bit must be a single bit: " + Long.toHexString(lockBit));
        }
        this.words = words;
        this.lockBit = lockBit;
    }

    /** @return the lock's bit. */
    public long lockBit()
    {
        return lockBit;
    }

    /**
     * @param word a value of a lock word.
     * @return whether its lock bit is set.
     */
    public boolean isLocked(final long word)
    {
        return (word & lockBit) != 0;
    }

    /**
     * @param index the lock word's index.
     * @return whether the lock is held (volatile read); after a crash, whether a writer died holding it.
     */
    public boolean isLockedVolatile(final long index)
    {
        return isLocked(words.getLongVolatile(index));
    }

    /**
     * Spins until this thread holds the lock.
     *
     * @param index the lock word's index.
     * @return the word as it now stands, lock bit set.
     */
    public long lockAcquire(final long index)
    {
        while (true)
        {
            final long word = words.getLongVolatile(index);
            if ((word & lockBit) == 0 && words.compareAndSetLong(index, word, word | lockBit))
            {
                return word | lockBit;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Takes the lock only if the word still holds {@code expected}, a value read earlier with the bit clear: the
     * caller's decision made from that value still stands once it holds the lock.
     *
     * @param index    the lock word's index.
     * @param expected the word as read, lock bit clear.
     * @return whether the lock was taken.
     */
    public boolean tryLockAcquire(final long index, final long expected)
    {
        return (expected & lockBit) == 0 && words.compareAndSetLong(index, expected, expected | lockBit);
    }

    /**
     * Releases the lock with one release store: the writes made under it become visible before the bit clears.
     *
     * @param index the lock word's index.
     * @param word  the word's new value; its lock bit is cleared here.
     */
    public void unlockRelease(final long index, final long word)
    {
        words.putLongRelease(index, word & ~lockBit);
    }

    /**
     * The recover idiom for a lock whose word's other bits are the owner's data: clears a lock bit left set by a
     * writer killed while holding it, keeping the other bits. Call only with no other user of the region, after
     * repairing what the lock guarded.
     *
     * @param index the lock word's index.
     * @return whether the bit was set (a writer died holding the lock).
     */
    public boolean recoverRelease(final long index)
    {
        final long word = words.getLongVolatile(index);
        if ((word & lockBit) == 0)
        {
            return false;
        }
        unlockRelease(index, word);
        return true;
    }
}
