package io.ddf.engine.memory;

import io.ddf.engine.DirectRegion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LockWordTest
{
    private static final long TOP = 1L << 63;
    private static final long LOW = 1L;

    @Test
    void lockKeepsTheOwnersBitsAndUnlockPublishesTheNewOnes()
    {
        try (DirectRegion r = new DirectRegion(64))
        {
            final MappedWords words = r.words();
            words.putLongPlain(3, 0x1234L);
            assertEquals(0x1234L | TOP, LockWord.lockAcquire(words, 3, TOP));
            assertTrue(LockWord.isLockedVolatile(words, 3, TOP));
            assertFalse(LockWord.isLockedVolatile(words, 2, TOP));
            LockWord.unlockRelease(words, 3, 0x5678L | TOP, TOP);
            assertEquals(0x5678L, words.getLongVolatile(3));
            assertFalse(LockWord.isLockedVolatile(words, 3, TOP));
        }
    }

    @Test
    void tryLockFailsWhenTheWordChangedOrIsHeld()
    {
        try (DirectRegion r = new DirectRegion(64))
        {
            final MappedWords words = r.words();
            words.putLongPlain(0, 4);
            assertFalse(LockWord.tryLockAcquire(words, 0, 2, LOW), "the word no longer holds what was read");
            assertFalse(LockWord.tryLockAcquire(words, 0, 5, LOW), "a value with the bit set is never free");
            assertTrue(LockWord.tryLockAcquire(words, 0, 4, LOW));
            assertEquals(5, words.getLongVolatile(0));
            assertFalse(LockWord.tryLockAcquire(words, 0, 4, LOW), "held");
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
            assertTrue(LockWord.isLockedVolatile(words, 5, TOP));
            assertTrue(LockWord.recoverRelease(words, 5, TOP));
            assertEquals(0x0ABCDEFL, words.getLongVolatile(5));
            assertFalse(LockWord.recoverRelease(words, 5, TOP), "nothing to recover the second time");
            assertEquals(0x0ABCDEFL, words.getLongVolatile(5));
            // The lock works again (it would spin forever, and time out, had the bit stayed set).
            assertEquals(0x0ABCDEFL | TOP, LockWord.lockAcquire(words, 5, TOP));
            LockWord.unlockRelease(words, 5, words.getLongPlain(5), TOP);
            assertEquals(0x0ABCDEFL, words.getLongVolatile(5));
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
            // Word 0 holds the lock and a counter; word 1 a second counter, updated with plain (non-atomic) writes:
            // only mutual exclusion keeps both exact.
            final Runnable add = () ->
            {
                for (int i = 0; i < perThread; i++)
                {
                    final long held = LockWord.lockAcquire(words, 0, TOP);
                    words.putLongPlain(1, words.getLongPlain(1) + 1);
                    LockWord.unlockRelease(words, 0, held + 1, TOP);
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
