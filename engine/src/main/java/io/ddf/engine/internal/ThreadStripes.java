package io.ddf.engine.internal;

/**
 * Which of a filter's stripes belongs to the calling thread: the stripe of its counters ({@link FilterCounters}) and
 * of its calls in flight ({@link CallGuard}). A thread claims a stripe of its own once per filter and from then on is
 * that stripe's only writer, so it updates it with a plain load and a release store, no locked instruction. Threads
 * beyond the {@code STRIPES - 1} that own one at a time (a stripe whose owner has terminated is taken over by the next
 * thread that needs one) are the overflow: they count in the counters' last stripe atomically, and each of their
 * calls takes a {@link #slot()} of its own from a pool by compare-and-set, which it frees by the same release store an
 * owner makes leaving. So leaving is one store for every call, and tests nothing.
 *
 * <p>Stripe 0 is the {@link #first()} caller's, found by one compare with its owner; the other threads' stripes are
 * named by their id's remainder (their hint), then looked for. So a filter streamed by one thread, the single-writer
 * gateway's case, pays no lookup; a thread that calls before the writer (a monitor's {@code duplicates()}, say) takes
 * stripe 0 while it lives, and the writer then pays the lookup every other thread pays.
 */
final class ThreadStripes
{
    /** Number of stripes; a power of two. */
    static final int STRIPES = 16;
    /** The counters' stripe every thread without one of its own updates atomically; the pool's slots' index. */
    static final int OVERFLOW = STRIPES - 1;
    /** Slots in the pool the overflow's calls take theirs from: beyond as many concurrent calls, a call waits. */
    static final int SLOTS = 16;
    /** Stripes and slots, which a closer marks and waits for. */
    static final int ALL = OVERFLOW + SLOTS;

    /**
     * The owned stripes (0 to {@code OVERFLOW - 1}, the owner of each claimed by compare-and-set), then the slots
     * (taken per call by compare-and-set of their count), each padded to lines of its own.
     */
    private final Stripe[] stripes = new Stripe[ALL];
    /** Stripe 0, the first caller's (no thread's hint names it). */
    private final Stripe first;

    ThreadStripes()
    {
        for (int i = 0; i < ALL; i++)
        {
            stripes[i] = Stripe.create(Math.min(i, OVERFLOW));
        }
        first = stripes[0];
    }

    /**
     * @return the calling thread's stripe: its own (claimed at its first call), or for the overflow the first slot,
     *         for its {@link Stripe#index} only (a call of the overflow counts in on a {@link #slot()}).
     */
    Stripe mine()
    {
        final Thread me = Thread.currentThread();
        if (first.ownedBy(me))
        {
            return first;
        }
        final Stripe own = other(me);
        return own == null ? stripes[OVERFLOW] : own;
    }

    /**
     * @return stripe 0, which the first thread to call claims (see {@link #claim}): a filter's only writer, as in
     *         single-writer mode, finds its stripe by comparing its thread with that stripe's owner, without
     *         computing its {@link #hint} (the id's remainder by 14: a multiply-high, about 12 instructions).
     */
    Stripe first()
    {
        return first;
    }

    /**
     * @return the calling thread's stripe when it does not own the {@link #first()}: at its hint, or claimed; null
     *         when every stripe has a live owner (the overflow).
     */
    Stripe other(final Thread me)
    {
        final Stripe hint = hint(me);
        return hint.ownedBy(me) ? hint : claim(me, hint.index);
    }

    /** @return the stripe the thread owns if it owns the one its id names (the usual case), else another. */
    private Stripe hint(final Thread thread)
    {
        return stripes[1 + (int)(thread.getId() % (OVERFLOW - 1))];
    }

    /**
     * Takes a free slot for one call of the overflow, freed by {@link Stripe#exit()}. Spins, then yields, while all
     * {@link #SLOTS} are in calls: only with more than {@code OVERFLOW + SLOTS} calls at once on one filter, none of
     * which waits for another (a call takes one slot and leaves).
     *
     * @return the slot, counting this call in (1).
     */
    Stripe slot()
    {
        for (int looks = 0; ; looks++)
        {
            for (int i = OVERFLOW; i < ALL; i++)
            {
                if (stripes[i].take())
                {
                    return stripes[i];
                }
            }
            if (looks < 100)
            {
                Thread.onSpinWait();
            }
            else
            {
                Thread.yield();
            }
        }
    }

    /** @return stripe or slot {@code index} (0 to {@code ALL - 1}), for a closer's look at every one. */
    Stripe get(final int index)
    {
        return stripes[index];
    }

    /**
     * The slow path: the stripe this thread owns elsewhere than at its hint, or one it claims now (free, or left by a
     * thread that has terminated: isAlive() returning false makes that thread's stores visible here), the
     * {@link #first()} before any other; null when every stripe has a live owner (the overflow).
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
        if (claimed(first, me))
        {
            return first;
        }
        for (int i = 0, at = hint; i < OVERFLOW - 1; i++, at = at + 1 == OVERFLOW ? 1 : at + 1)
        {
            if (claimed(stripes[at], me))
            {
                return stripes[at];
            }
        }
        return null;
    }

    /** @return whether the caller took the stripe, free or left by a thread that has terminated. */
    private static boolean claimed(final Stripe stripe, final Thread me)
    {
        final Thread owner = stripe.owner();
        return (owner == null || !owner.isAlive()) && stripe.claim(owner, me);
    }
}
