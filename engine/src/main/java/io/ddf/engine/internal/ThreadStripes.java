package io.ddf.engine.internal;

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

    /** The stripes, each padded to lines of its own; the owner of each but the overflow claimed by compare-and-set. */
    private final Stripe[] stripes = new Stripe[STRIPES];

    ThreadStripes()
    {
        for (int i = 0; i < STRIPES; i++)
        {
            stripes[i] = Stripe.create(i, i == OVERFLOW);
        }
    }

    /** @return the calling thread's stripe: its own (claimed at its first call), or the overflow. */
    Stripe mine()
    {
        final Thread me = Thread.currentThread();
        final Stripe hint = hint(me);
        return hint.ownedBy(me) ? hint : claim(me, hint.index);
    }

    /** @return the stripe the thread owns if it owns the one its id names (the usual case), else another. */
    Stripe hint(final Thread thread)
    {
        return stripes[(int)(thread.getId() % OVERFLOW)];
    }

    /** @return stripe {@code index} (0 to {@link #OVERFLOW}), for a closer's look at every stripe. */
    Stripe get(final int index)
    {
        return stripes[index];
    }

    /**
     * The slow path: the stripe this thread owns elsewhere than at its hint, or one it claims now (free, or left by a
     * thread that has terminated: isAlive() returning false makes that thread's stores visible here), or the
     * overflow.
     */
    private Stripe claim(final Thread me, final int hint)
    {
        for (int i = 0; i < OVERFLOW; i++)
        {
            if (stripes[i].owner() == me)
            {
                return stripes[i];
            }
        }
        for (int i = 0, at = hint; i < OVERFLOW; i++, at = at + 1 == OVERFLOW ? 0 : at + 1)
        {
            final Thread owner = stripes[at].owner();
            if ((owner == null || !owner.isAlive()) && stripes[at].claim(owner, me))
            {
                return stripes[at];
            }
        }
        return stripes[OVERFLOW];
    }
}
