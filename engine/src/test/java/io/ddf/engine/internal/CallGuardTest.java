package io.ddf.engine.internal;

import io.ddf.persistence.platform.AsymmetricFence;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A close waits for every call in flight, whichever way the call was counted in: on the first caller's stripe, on a
 * stripe of its own, or on a slot of the overflow's pool; and refuses calls once begun. Deterministic: a call is held
 * in flight by the test, and the closer must still be waiting after a while (with the slots not waited for, the
 * closer returns at once: the concurrent {@code CloseUnderLoadTest}, 20 streamers, did not catch that mutant with
 * seeds 1 to 4, 50 rounds each).
 */
class CallGuardTest
{
    /** How long a waiting closer is given to (wrongly) finish. */
    private static final long WAIT_MILLIS = 200;

    @Test
    void closeWaitsForTheFirstCallersCall() throws Exception
    {
        final CallGuard guard = new CallGuard("test");
        final Stripe stripe = guard.enter();
        assertEquals(0, stripe.index, "the first caller's stripe");
        closeWhileHeld(guard, stripe);
    }

    @Test
    void closeWaitsForAnOwnedStripesCall() throws Exception
    {
        final CallGuard guard = new CallGuard("test");
        final Owners first = new Owners(guard, 1);
        try
        {
            final Stripe stripe = guard.enter();
            assertTrue(stripe.index > 0 && stripe.index < ThreadStripes.OVERFLOW, "a stripe of its own");
            closeWhileHeld(guard, stripe);
        }
        finally
        {
            first.close();
        }
    }

    @Test
    void closeWaitsForAnOverflowCallsSlot() throws Exception
    {
        final CallGuard guard = new CallGuard("test");
        final Owners all = new Owners(guard, ThreadStripes.OVERFLOW);
        try
        {
            final Stripe slot = guard.enter();
            assertEquals(ThreadStripes.OVERFLOW, slot.index, "every stripe owned by a live thread: a slot");
            closeWhileHeld(guard, slot);
        }
        finally
        {
            all.close();
        }
    }

    /** Begins closing while the calling thread's call is in flight on {@code stripe}: the closer waits for its exit. */
    private static void closeWhileHeld(final CallGuard guard, final Stripe stripe) throws InterruptedException
    {
        final CountDownLatch idle = new CountDownLatch(1);
        final Thread closer = new Thread(() ->
        {
            guard.beginClose();
            AsymmetricFence.heavy();
            guard.awaitIdle();
            idle.countDown();
            guard.closed();
        });
        closer.start();
        assertFalse(idle.await(WAIT_MILLIS, TimeUnit.MILLISECONDS), "the close did not wait for the call in flight");
        assertNull(guard.tryEnter(), "a new call while closing is refused"); // nested, then refused: counted out
        CallGuard.exit(stripe);
        assertTrue(idle.await(10, TimeUnit.SECONDS), "the close did not end once the call left");
        closer.join();
        assertNull(guard.tryEnter(), "refused once closed");
    }

    /** Threads that each own a stripe of the guard (by one call in and out) and stay alive until closed. */
    private static final class Owners
    {
        private final CountDownLatch release = new CountDownLatch(1);
        private final List<Thread> threads = new ArrayList<>();

        Owners(final CallGuard guard, final int count) throws InterruptedException
        {
            for (int i = 0; i < count; i++)
            {
                final CountDownLatch entered = new CountDownLatch(1);
                final Thread thread = new Thread(() ->
                {
                    final Stripe stripe = guard.enter();
                    CallGuard.exit(stripe);
                    entered.countDown();
                    try
                    {
                        release.await();
                    }
                    catch (final InterruptedException e)
                    {
                        Thread.currentThread().interrupt();
                    }
                });
                thread.start();
                threads.add(thread);
                entered.await(); // one at a time: the first takes stripe 0, the others stripes of their own
            }
        }

        void close() throws InterruptedException
        {
            release.countDown();
            for (final Thread thread : threads)
            {
                thread.join();
            }
        }
    }
}
