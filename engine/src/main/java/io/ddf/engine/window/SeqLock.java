package io.ddf.engine.window;

import io.ddf.engine.memory.MappedWords;

import java.lang.invoke.VarHandle;

/**
 * A sequence lock in one word of mapped memory: even when free, odd while a writer holds it. Writers exclude each
 * other with a compare-and-swap; readers take no lock and write nothing: they read the word, read the state, and
 * retry if the word changed in between (a writer ran), so {@code contains} never modifies the file.
 *
 * <p>A process killed while holding the lock leaves the word odd; the owner repairs its state and calls
 * {@link #forceRelease()} when the file is reopened.
 */
final class SeqLock
{
    private final MappedWords words;
    private final long index;

    /**
     * @param words the region holding the lock word.
     * @param index the lock word's index.
     */
    SeqLock(final MappedWords words, final long index)
    {
        this.words = words;
        this.index = index;
    }

    /**
     * Spins until this thread holds the lock.
     *
     * @return the (odd) value the word now holds, for {@link #unlock}.
     */
    long lock()
    {
        while (true)
        {
            final long s = words.getLongVolatile(index);
            if ((s & 1) == 0 && words.compareAndSetLong(index, s, s + 1))
            {
                return s + 1;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Releases the lock; the writes made under it become visible before the word changes.
     *
     * @param locked what {@link #lock} returned.
     */
    void unlock(final long locked)
    {
        words.putLongRelease(index, locked + 1);
    }

    /** @return an even sequence value to validate a lock-free read against; spins while a writer holds the lock. */
    long readBegin()
    {
        while (true)
        {
            final long s = words.getLongVolatile(index);
            if ((s & 1) == 0)
            {
                return s;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * @param begin what {@link #readBegin} returned.
     * @return whether no writer ran since, so what was read in between is consistent.
     */
    boolean readValid(final long begin)
    {
        VarHandle.acquireFence(); // the state's plain reads happen before the sequence is read again
        return words.getLongVolatile(index) == begin;
    }

    /** @return whether a writer holds the lock (after a crash: one was killed while holding it). */
    boolean held()
    {
        return (words.getLongVolatile(index) & 1) != 0;
    }

    /** Frees a lock left held by a killed writer; call only with no other user of the file. */
    void forceRelease()
    {
        final long s = words.getLongVolatile(index);
        if ((s & 1) != 0)
        {
            words.putLongRelease(index, s + 1);
        }
    }
}
