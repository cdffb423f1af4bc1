package io.ddf.engine.memory;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.MappedWords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LockWordTest
{
    private static final long TOP = 1L << 63;

    @Test
    void lockKeepsTheOwnersBitsAndUnlockPublishesTheNewOnes()
    {
        try (DirectRegion r = new DirectRegion(64))
        {
            final MappedWords words = r.words();
            final LockWord lock = new LockWord(words, TOP);
            words.putLongPlain(3, 0x1234L);
            assertEquals(0x1234L | TOP, lock.lockAcquire(3));
            assertTrue(lock.isLockedVolatile(3));
            assertFalse(lock.isLockedVolatile(2));
            lock.unlockRelease(3, 0x5678L | TOP);
            assertEquals(0x5678L, words.getLongVolatile(3));
            assertFalse(lock.isLockedVolatile(3));
        }
    }

    @Test
    void tryLockFailsWhenTheWordChangedOrIsHeld()
    {
        try (DirectRegion r = new DirectRegion(64))
        {
            final MappedWords words = r.words();
            final LockWord lock = new LockWord(words, 1L);
            words.putLongPlain(0, 4);
            assertFalse(lock.tryLockAcquire(0, 2), "the word no longer holds what was read");
            assertFalse(lock.tryLockAcquire(0, 5), "an expected value with the bit set is never free");
            assertTrue(lock.tryLockAcquire(0, 4));
            assertEquals(5, words.getLongVolatile(0));
            assertFalse(lock.tryLockAcquire(0, 4), "held");
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void recoverClearsALockBitLeftSetByACrashedWriterAndKeepsTheData()
    {
        try (DirectRegion r = new DirectRegion(64))
        {
            final MappedWords words = r.words();
            // A writer killed mid-update: its lock bit is still set in the mapped region.
            words.putLongRelease(5, 0x0ABCDEFL | TOP);
            final LockWord lock = new LockWord(words, TOP);
            assertTrue(lock.isLockedVolatile(5));
            assertTrue(lock.recoverRelease(5));
            assertEquals(0x0ABCDEFL, words.getLongVolatile(5));
            assertFalse(lock.recoverRelease(5), "nothing to recover the second time");
            assertEquals(0x0ABCDEFL, words.getLongVolatile(5));
            // The lock works again (it would spin forever, and time out, had the bit stayed set).
            assertEquals(0x0ABCDEFL | TOP, lock.lockAcquire(5));
            lock.unlockRelease(5, words.getLongPlain(5));
            assertEquals(0x0ABCDEFL, words.getLongVolatile(5));
        }
    }

    @Test
    void aLockBitMustBeOneBit()
    {
        try (DirectRegion r = new DirectRegion(64))
        {
            assertThrows(IllegalArgumentException.class, () -> new LockWord(r.words(), 3L));
            assertThrows(IllegalArgumentException.class, () -> new LockWord(r.words(), 0L));
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void excludesConcurrentWritersOfTheGuardedWords() throws InterruptedException
    {
        final int perThread = 200_000;
        try (DirectRegion r = new DirectRegion(64))
        {
            final MappedWords words = r.words();
            final LockWord lock = new LockWord(words, TOP);
            // Word 0 holds the lock and a counter; word 1 a second counter, updated with plain (non-atomic) writes:
            // only mutual exclusion keeps both exact.
            final Runnable add = () ->
            {
                for (int i = 0; i < perThread; i++)
                {
                    final long held = lock.lockAcquire(0);
                    words.putLongPlain(1, words.getLongPlain(1) + 1);
                    lock.unlockRelease(0, held + 1);
                }
            };
            final Thread a = new Thread(add);
            final Thread b = new Thread(add);
            a.start();
            b.start();
            a.join();
            b.join();
            assertEquals(2L * perThread, words.getLongVolatile(0));
            assertEquals(2L * perThread, words.getLongVolatile(1));
        }
    }
}
