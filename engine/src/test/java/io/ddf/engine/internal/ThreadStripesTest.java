package io.ddf.engine.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which stripe a thread gets ({@link ThreadStripes}): the first caller the {@link ThreadStripes#first() first} stripe,
 * found without its id's lookup, the others stripes of their own, one owner a stripe, and threads beyond them the
 * overflow, whose calls take a slot each from a pool; stripe 0 passes to a later thread once its owner has terminated.
 */
class ThreadStripesTest
{
    @Test
    void firstCallerOwnsTheFirstStripeAndKeepsIt() throws Exception
    {
        final ThreadStripes stripes = new ThreadStripes();
        final Stripe mine = stripes.mine();
        assertSame(stripes.first(), mine, "the first caller's stripe");
        assertEquals(0, mine.index);
        assertTrue(mine.ownedBy(Thread.currentThread()));
        assertSame(mine, stripes.mine(), "the same stripe at every call");
        final Stripe other = onNewThread(stripes);
        assertNotSame(stripes.first(), other, "a second thread's stripe");
        assertTrue(other.index > 0 && other.index < ThreadStripes.OVERFLOW, "own stripe, not the overflow: "
            + other.index);
    }

    @Test
    void firstStripePassesOnWhenItsOwnerHasTerminated() throws Exception
    {
        final ThreadStripes stripes = new ThreadStripes();
        assertSame(stripes.first(), onNewThread(stripes), "a terminated thread's claim");
        assertSame(stripes.first(), stripes.mine(), "taken over once its owner has terminated");
    }

    @Test
    void moreThreadsThanStripesShareTheOverflowOnly() throws Exception
    {
        final ThreadStripes stripes = new ThreadStripes();
        final int threads = ThreadStripes.STRIPES + 4;
        final CountDownLatch claimed = new CountDownLatch(threads);
        final CountDownLatch release = new CountDownLatch(1);
        final ConcurrentLinkedQueue<Stripe> got = new ConcurrentLinkedQueue<>();
        final List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++)
        {
            final Thread thread = new Thread(() ->
            {
                final Stripe stripe = stripes.mine();
                if (stripe == stripes.mine())
                {
                    got.add(stripe); // else missing from got: counted below
                }
                claimed.countDown();
                awaitQuietly(release); // alive: nobody may take its stripe over
            });
            thread.start();
            started.add(thread);
        }
        claimed.await();
        release.countDown();
        for (final Thread thread : started)
        {
            thread.join();
        }
        final Set<Integer> owned = new HashSet<>();
        int overflow = 0;
        for (final Stripe stripe : got)
        {
            if (stripe.index == ThreadStripes.OVERFLOW)
            {
                overflow++;
            }
            else
            {
                assertTrue(owned.add(stripe.index), "stripe " + stripe.index + " given to two live threads");
            }
        }
        assertEquals(threads, got.size(), "each thread the same stripe at every call");
        assertEquals(ThreadStripes.OVERFLOW, owned.size(), "every stripe but the overflow owned");
        assertEquals(threads - ThreadStripes.OVERFLOW, overflow);
    }

    @Test
    void aSlotHoldsOneCallAndLeavingFreesIt()
    {
        final ThreadStripes stripes = new ThreadStripes();
        final Set<Stripe> held = new HashSet<>(); // Stripe has identity equality
        for (int i = 0; i < ThreadStripes.SLOTS; i++)
        {
            final Stripe slot = stripes.slot();
            assertEquals(ThreadStripes.OVERFLOW, slot.index, "a slot counts in the counters' overflow stripe");
            assertEquals(1, slot.inFlight(), "taken: the call counted in");
            assertTrue(held.add(slot), "a slot given to two calls at once");
        }
        for (int i = ThreadStripes.OVERFLOW; i < ThreadStripes.ALL; i++)
        {
            assertFalse(stripes.get(i).take(), "slot " + i + " taken twice");
        }
        final Stripe freed = held.iterator().next();
        freed.exit();
        assertEquals(0, freed.inFlight(), "leaving counts the call out");
        assertSame(freed, stripes.slot(), "and frees its slot for the next call");
    }

    private static Stripe onNewThread(final ThreadStripes stripes) throws InterruptedException
    {
        final AtomicReference<Stripe> got = new AtomicReference<>();
        final Thread thread = new Thread(() -> got.set(stripes.mine()));
        thread.start();
        thread.join();
        return got.get();
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
