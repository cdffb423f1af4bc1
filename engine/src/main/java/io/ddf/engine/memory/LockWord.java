package io.ddf.engine.memory;


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
 *
 * <p>Static methods taking the lock bit, not an object holding it: call sites pass a constant, which the JIT folds
 * (an instance field would be loaded on every call), and no core holds one more object.
 */
public final class LockWord
{
    private LockWord()
    {
    }

    /**
     * @param word    a value of a lock word.
     * @param lockBit the lock's bit.
     * @return whether the lock bit is set.
     */
    public static boolean isLocked(final long word, final long lockBit)
    {
        return (word & lockBit) != 0;
    }

    /**
     * @param words   the region holding the lock word.
     * @param index   the lock word's index.
     * @param lockBit the lock's bit.
     * @return whether the lock is held (volatile read); after a crash, whether a writer died holding it.
     */
    public static boolean isLockedVolatile(final MappedWords words, final long index, final long lockBit)
    {
        return (words.getLongVolatile(index) & lockBit) != 0;
    }

    /**
     * Spins until this thread holds the lock.
     *
     * @param words   the region holding the lock word.
     * @param index   the lock word's index.
     * @param lockBit the lock's bit.
     * @return the word as it now stands, lock bit set.
     */
    public static long lockAcquire(final MappedWords words, final long index, final long lockBit)
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
     * @param words    the region holding the lock word.
     * @param index    the lock word's index.
     * @param expected the word as read, lock bit clear.
     * @param lockBit  the lock's bit.
     * @return whether the lock was taken.
     */
    public static boolean tryLockAcquire(
        final MappedWords words, final long index, final long expected, final long lockBit)
    {
        return (expected & lockBit) == 0 && words.compareAndSetLong(index, expected, expected | lockBit);
    }

    /**
     * Releases the lock with one release store: the writes made under it become visible before the bit clears.
     *
     * @param words   the region holding the lock word.
     * @param index   the lock word's index.
     * @param word    the word's new value; its lock bit is cleared here.
     * @param lockBit the lock's bit.
     */
    public static void unlockRelease(final MappedWords words, final long index, final long word, final long lockBit)
    {
        words.putLongRelease(index, word & ~lockBit);
    }

    /**
     * The recover idiom for a lock whose word's other bits are the owner's data: clears a lock bit left set by a
     * writer killed while holding it, keeping the other bits. Call only with no other user of the region, after
     * repairing what the lock guarded.
     *
     * @param words   the region holding the lock word.
     * @param index   the lock word's index.
     * @param lockBit the lock's bit.
     * @return whether the bit was set (a writer died holding the lock).
     */
    public static boolean recoverRelease(final MappedWords words, final long index, final long lockBit)
    {
        final long word = words.getLongVolatile(index);
        if ((word & lockBit) == 0)
        {
            return false;
        }
        unlockRelease(words, index, word, lockBit);
        return true;
    }
}
