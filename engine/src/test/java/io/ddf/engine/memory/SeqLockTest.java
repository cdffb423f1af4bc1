package io.ddf.engine.memory;

import io.ddf.engine.DirectRegion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SeqLockTest
{
    @Test
    void versionsAreOddWhileHeldAndAdvanceByTwoPerWrite()
    {
        try (DirectRegion r = new DirectRegion(64))
        {
            final MappedWords words = r.words();
            final SeqLock lock = new SeqLock(words, 2);
            final long begin = lock.readBeginAcquire();
            assertEquals(0, begin);
            final long held = lock.lockAcquire();
            assertEquals(1, held);
            assertTrue(lock.isLockedVolatile());
            lock.unlockRelease(held);
            assertEquals(2, words.getLongVolatile(2));
            assertFalse(lock.readValidAcquire(begin), "a writer ran since begin");
            assertTrue(lock.readValidAcquire(lock.readBeginAcquire()));
            assertFalse(lock.tryLockAcquire(begin), "stale version");
            assertTrue(lock.tryLockAcquire(2));
            lock.unlockRelease(3);
            assertEquals(4, words.getLongVolatile(2));
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void recoverReleasesALockLeftHeldByACrashedWriterAtTheNextVersion()
    {
        try (DirectRegion r = new DirectRegion(64))
        {
            final MappedWords words = r.words();
            words.putLongRelease(0, 41); // a writer killed while holding the lock at version 40
            final SeqLock lock = new SeqLock(words, 0);
            assertTrue(lock.isLockedVolatile());
            assertTrue(lock.recoverRelease());
            assertEquals(42, words.getLongVolatile(0), "as the dead writer's unlock would have left it");
            assertFalse(lock.recoverRelease());
            assertEquals(42, lock.readBeginAcquire()); // spins forever, and times out, while still held
            assertEquals(43, lock.lockAcquire());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void readersNeverAcceptATornState() throws InterruptedException
    {
        final int writes = 200_000;
        try (DirectRegion r = new DirectRegion(64))
        {
            final MappedWords words = r.words();
            final SeqLock lock = new SeqLock(words, 0);
            final AtomicBoolean done = new AtomicBoolean();
            final AtomicLong torn = new AtomicLong();
            final AtomicLong validated = new AtomicLong();
            final Thread reader = new Thread(() ->
            {
                while (!done.get())
                {
                    final long begin = lock.readBeginAcquire();
                    final long a = words.getLongPlain(1);
                    final long b = words.getLongPlain(2);
                    if (lock.readValidAcquire(begin))
                    {
                        validated.incrementAndGet();
                        if (a != -b)
                        {
                            torn.incrementAndGet();
                        }
                    }
                }
            });
            reader.start();
            // the writer goes on until the reader has validated some reads too: on a loaded machine the reader's
            // thread may not be scheduled before 200,000 writes are over (CI saw validated == 0)
            long i = 1;
            for (; i <= writes || validated.get() < 1_000; i++)
            {
                final long held = lock.lockAcquire();
                words.putLongPlain(1, i);
                words.putLongPlain(2, -i);
                lock.unlockRelease(held);
            }
            done.set(true);
            reader.join();
            assertEquals(0, torn.get(), "validated reads of a half-written state");
            assertTrue(validated.get() >= 1_000);
            assertEquals(2L * (i - 1), words.getLongVolatile(0));
        }
    }
}
