package io.ddf.engine.internal;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Which of a filter's stripes belongs to the calling thread: the stripe of its counters ({@link FilterCounters}) and
 * of its calls in flight ({@link CallGuard}). A thread claims a stripe of its own once per filter and from then on is
 * that stripe's only writer, so it updates it with a plain load and a release store, no locked instruction. The last
 * stripe is the overflow, updated atomically, for threads beyond the {@code STRIPES - 1} that own one at a time (a
 * stripe whose owner has terminated is taken over by the next thread that needs one).
 */
final class ThreadStripes
{
    /** Number of stripes; a power of two. */
    static final int STRIPES = 16;
    /** The stripe every thread without one of its own updates atomically. */
    static final int OVERFLOW = STRIPES - 1;

    /** The owner of each stripe but the overflow; written by compare-and-set only when a thread claims one. */
    private final AtomicReferenceArray<Thread> owners = new AtomicReferenceArray<>(OVERFLOW);

    /** @return the calling thread's stripe: its own (claimed at its first call), or {@link #OVERFLOW}. */
    int mine()
    {
        final Thread me = Thread.currentThread();
        final int stripe = (int)(me.getId() % OVERFLOW);
        return owners.getPlain(stripe) == me ? stripe : claim(me, stripe);
    }

    /**
     * The slow path: the stripe this thread owns elsewhere than at its hint, or one it claims now (free, or left by a
     * thread that has terminated: isAlive() returning false makes that thread's stores visible here), or the
     * overflow.
     */
    private int claim(final Thread me, final int hint)
    {
        for (int i = 0; i < OVERFLOW; i++)
        {
            if (owners.get(i) == me)
            {
                return i;
            }
        }
        for (int i = 0, stripe = hint; i < OVERFLOW; i++, stripe = stripe + 1 == OVERFLOW ? 0 : stripe + 1)
        {
            final Thread owner = owners.get(stripe);
            if ((owner == null || !owner.isAlive()) && owners.compareAndSet(stripe, owner, me))
            {
                return stripe;
            }
        }
        return OVERFLOW;
    }
}
