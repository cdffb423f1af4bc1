package io.ddf.engine.internal;

import io.ddf.persistence.platform.AsymmetricFence;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One of a filter's {@link ThreadStripes}: the thread that owns it, its calls in flight and the filter's closing mark,
 * all in one padded object, so that a call's guard reads and writes one cache line that only its thread writes
 * (issue 30: with the owners in one array, the counts in another and the mark in the guard, the guard cost QHT's
 * owned hot path 3–4 %, see bench/results/hotpath/guard-cost-*.md). The index is the stripe of the counters
 * ({@link FilterCounters}) this thread counts in.
 *
 * <p>The mark is a copy per stripe: the closer sets it in every stripe before its heavy fence ({@link CallGuard}), a
 * call reads its own.
 *
 * <p>A slot of the overflow's pool ({@link ThreadStripes#slot()}) is a stripe no thread owns: a call
 * {@link #take()}s it by compare-and-set of its count from 0 to 1, and is then its only writer until its
 * {@link #exit()} stores 0.
 */
abstract class Stripe extends StripePadding
{
    private static final VarHandle OWNER;
    private static final VarHandle IN_FLIGHT;
    private static final VarHandle CLOSING;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            OWNER = lookup.findVarHandle(Stripe.class, "owner", Thread.class);
            IN_FLIGHT = lookup.findVarHandle(Stripe.class, "inFlight", long.class);
            CLOSING = lookup.findVarHandle(Stripe.class, "closing", boolean.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The stripe's number, 0 to {@link ThreadStripes#OVERFLOW} (every slot): its stripe of the counters. */
    final int index;
    /** The owning thread (null: none yet, always for a slot); read plainly by the owner, claimed by CAS. */
    private Thread owner;
    /**
     * Calls in flight: written only by the owner (plainly read, opaque/release stored); a slot's by the call that took
     * it (0 to 1 by CAS, back to 0 by a release store).
     */
    private long inFlight;
    /** Whether the filter is closing: stored by the closer (volatile), read opaquely by calls (only through CLOSING). */
    @SuppressWarnings("PMD.UnusedPrivateField")
    private boolean closing;

    private Stripe(final int index)
    {
        this.index = index;
    }

    /** @return a stripe padded on both sides. */
    static Stripe create(final int index)
    {
        return new Padded(index);
    }

    /** @return whether the calling thread owns this stripe (a plain read: only its own claim can make it true). */
    final boolean ownedBy(final Thread thread)
    {
        return owner == thread;
    }

    /** @return the owner, as a claimer sees it (volatile). */
    final Thread owner()
    {
        return (Thread)OWNER.getVolatile(this);
    }

    /** @return whether the caller took the stripe from {@code expected}. */
    final boolean claim(final Thread expected, final Thread claimer)
    {
        return OWNER.compareAndSet(this, expected, claimer);
    }

    /**
     * Counts a call of the owner in, then reads the closing mark past the fence's light side.
     *
     * @return false when the filter is closing (the call is counted out again).
     */
    final boolean enterOwned()
    {
        IN_FLIGHT.setOpaque(this, inFlight + 1);
        AsymmetricFence.light();
        if ((boolean)CLOSING.getOpaque(this))
        {
            exit();
            return false;
        }
        return true;
    }

    /**
     * Takes a free slot for one call, counted in (a volatile compare-and-set: a full fence of its own); the caller
     * then reads the mark ({@link #closing()}).
     *
     * @return whether the caller took it (false: another call holds it).
     */
    final boolean take()
    {
        return (long)IN_FLIGHT.getOpaque(this) == 0 && IN_FLIGHT.compareAndSet(this, 0L, 1L); // opaque: read anew
    }

    /**
     * Counts a call out, on a stripe the caller owns or a slot it took (freeing it): the release store makes its
     * writes visible to the closer that sees the count drop.
     */
    final void exit()
    {
        IN_FLIGHT.setRelease(this, inFlight - 1);
    }

    /** @return the calls in flight (acquire: their writes are visible once it reads 0). */
    final long inFlight()
    {
        return (long)IN_FLIGHT.getAcquire(this);
    }

    /** The closer's store of the mark. */
    final void markClosing()
    {
        CLOSING.setVolatile(this, true);
    }

    /** @return whether the mark is set (volatile: for the rare paths that check it alone). */
    final boolean closing()
    {
        return (boolean)CLOSING.getVolatile(this);
    }

    /** 128 bytes after the fields (see {@link StripePadding}). */
    private static final class Padded extends Stripe
    {
        long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15, q16;

        Padded(final int index)
        {
            super(index);
        }
    }
}
