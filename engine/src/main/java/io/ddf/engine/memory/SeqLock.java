package io.ddf.engine.memory;


import java.lang.invoke.VarHandle;

/**
 * A sequence lock in one word of mapped memory: a {@link LockWord} on bit 0 whose other bits count versions, so
 * the word is even when free and odd while a writer holds it, and every release adds 2. It is a different concept
 * from a plain lock word, hence its own class: readers take no lock and write nothing (so {@code contains} never
 * modifies the file); they read the version, read the guarded state, and retry when the version changed in
 * between (a writer ran). Used by the cuckoo table (relocations) and the window regions.
 *
 * <p>Recover: a writer killed while holding the lock leaves the word odd. {@link #recoverRelease()} (same idiom as
 * {@link LockWord#recoverRelease}: the owner repairs its state first, with no other user of the file) releases it
 * as the dead writer's {@link #unlockRelease} would have, to the next even version.
 */
public final class SeqLock
{
    private static final long LOCK_BIT = 1L;

    private final MappedWords words;
    private final long index;

    /**
     * @param words the region holding the lock word.
     * @param index the lock word's index.
     */
    public SeqLock(final MappedWords words, final long index)
    {
        this.words = words;
        this.index = index;
    }

    /**
     * Spins until this thread holds the lock.
     *
     * @return the (odd) value the word now holds, for {@link #unlockRelease}.
     */
    public long lockAcquire()
    {
        return LockWord.lockAcquire(words, index, LOCK_BIT);
    }

    /**
     * Takes the lock only if no writer ran since {@code version} was read, so a decision made from reads validated
     * against it still holds.
     *
     * @param version an even version from {@link #readBeginAcquire}.
     * @return whether the lock was taken.
     */
    public boolean tryLockAcquire(final long version)
    {
        return LockWord.tryLockAcquire(words, index, version, LOCK_BIT);
    }

    /**
     * Releases the lock at the next version; the writes made under it become visible before the word changes.
     *
     * @param locked the odd value the word holds ({@link #lockAcquire}'s result, or the version given to
     *               {@link #tryLockAcquire} plus one).
     */
    public void unlockRelease(final long locked)
    {
        LockWord.unlockRelease(words, index, locked + 1, LOCK_BIT);
    }

    /**
     * Releases the lock at the version it was taken at: for a writer that, as it turned out, only filled empty
     * cells or wrote nothing, which the guarded structure's readers tolerate as they tolerate lock-free fills, so
     * they need not retry.
     *
     * @param locked the odd value the word holds.
     */
    public void unlockUnchangedRelease(final long locked)
    {
        LockWord.unlockRelease(words, index, locked, LOCK_BIT);
    }

    /** @return an even version to validate a lock-free read against; spins while a writer holds the lock. */
    public long readBeginAcquire()
    {
        while (true)
        {
            final long version = words.getLongVolatile(index);
            if (!LockWord.isLocked(version, LOCK_BIT))
            {
                return version;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * @param begin what {@link #readBeginAcquire} returned.
     * @return whether no writer ran since, so what was read in between is consistent.
     */
    public boolean readValidAcquire(final long begin)
    {
        VarHandle.acquireFence(); // the state's plain reads happen before the version is read again
        return words.getLongVolatile(index) == begin;
    }

    /** @return whether a writer holds the lock (after a crash: one was killed while holding it). */
    public boolean isLockedVolatile()
    {
        return LockWord.isLockedVolatile(words, index, LOCK_BIT);
    }

    /**
     * Frees a lock left held by a killed writer, at the version its release would have stored; call only with no
     * other user of the file, after repairing the state it guarded.
     *
     * @return whether the lock was held.
     */
    public boolean recoverRelease()
    {
        final long word = words.getLongVolatile(index);
        if (!LockWord.isLocked(word, LOCK_BIT))
        {
            return false;
        }
        unlockRelease(word);
        return true;
    }
}
