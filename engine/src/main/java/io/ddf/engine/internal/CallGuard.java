package io.ddf.engine.internal;

import io.ddf.persistence.platform.AsymmetricFence;

import java.util.concurrent.locks.LockSupport;

/**
 * The calls in flight on one filter, so that closing it waits for them and refuses new ones before it seals and
 * unmaps the file (issue 30: a close that sealed while a write was still landing left a checksum the file no longer
 * matched, and a write after the unmap crashed the JVM).
 *
 * <p>A call {@link #tryEnter enters} on its thread's {@link Stripe} ({@link ThreadStripes}) and {@link #exit}s after.
 * The stripe is one padded object holding its owner, its count of calls in flight and a copy of the filter's closing
 * mark, so the guard touches one cache line that only the calling thread writes. Entering counts the call in (a plain
 * load and an opaque store of the count, which only the owner writes), then, past an
 * {@link AsymmetricFence#light() asymmetric fence's light side} (no instruction on x86), reads the stripe's closing
 * mark; exiting counts it out with a release store. The first thread to call owns the first stripe, which the guard
 * holds in a field of its own: that thread, a single-writer filter's only writer in the usual case, finds its stripe
 * by one compare with the owner, without the thread id's remainder that names the other threads' stripes, and tests
 * nothing more. No locked instruction, in either mode, for the first {@code STRIPES - 1} threads; a call of the
 * overflow's threads takes a slot of its own by compare-and-set ({@link ThreadStripes#slot()}). Leaving is one release
 * store of the count, for every call. Closing sets the mark in every stripe and slot (volatile stores), runs the
 * fence's heavy side, then waits until every stripe and slot counts nothing in flight: a call
 * either was counted in when the heavy side returned, and is waited for, or read the mark and refuses itself
 * (counted out again; the filter throws {@link IllegalStateException}). Once idle, the filter's memory is the
 * closer's: the calls' release stores made their writes visible to its acquire loads.
 *
 * <p>Why the call's read of the mark may be opaque rather than volatile: the argument above needs of that read only
 * that it is made after the count's store in the thread's own order (the light side keeps the compiler from moving
 * it up; the heavy side's barrier on every CPU running a thread of the process orders the two in hardware as a full
 * fence would) and that it is really made at every call (opaque: never cached in a register, never hoisted out of a
 * loop). A call that reads no mark takes nothing from the closer, so it needs no acquire; one that reads it only
 * refuses itself.
 */
final class CallGuard
{
    /** How long a closer spins on a stripe before it yields, then parks between looks. */
    private static final int SPINS = 100;
    private static final long PARK_NANOS = 20_000;

    /** Each thread's stripe: its calls in flight, the closing mark, its stripe of the counters. */
    private final ThreadStripes stripes = new ThreadStripes();
    /** The first caller's stripe ({@link ThreadStripes#first()}), a field of its own: one load on the hot path. */
    private final Stripe first = stripes.first();
    /** What refused calls say: the filter's file. */
    private final String name;
    /** Under this guard's monitor: whether a close has begun, and whether it has finished. */
    private boolean closeBegun;
    private boolean closeDone;

    /** @param name the filter, for the message of a refused call (its file, or null when anonymous). */
    CallGuard(final Object name)
    {
        this.name = name == null ? "filter is closed" : "filter is closed: " + name;
    }

    /**
     * Counts the calling thread's call in: until {@link #exit} a close waits for it.
     *
     * @return the thread's stripe ({@link ThreadStripes#mine()}), to exit on and to count in.
     * @throws IllegalStateException when the filter is closing or closed; nothing is then counted.
     */
    Stripe enter()
    {
        final Stripe stripe = tryEnter();
        if (stripe == null)
        {
            throw closedError();
        }
        return stripe;
    }

    /**
     * Counts the calling thread's call in, or refuses it when the filter is closing.
     *
     * @return the thread's stripe, to {@link #exit} on; null when the filter is closing or closed (nothing counted).
     */
    Stripe tryEnter()
    {
        final Thread me = Thread.currentThread();
        final Stripe first = this.first;
        if (first.ownedBy(me))
        {
            return first.enterOwned() ? first : null; // the hot path: no lookup, no test of the overflow
        }
        final Stripe own = stripes.other(me); // at its hint, or claims one, or null: the overflow
        if (own != null)
        {
            return own.enterOwned() ? own : null;
        }
        final Stripe slot = stripes.slot(); // counted in by its CAS, a full fence
        if (slot.closing())
        {
            slot.exit();
            return null;
        }
        return slot;
    }

    /**
     * Counts a call out: its writes are visible to the closer that sees the count drop. Static: the caller need not
     * load its guard again to leave.
     *
     * @param stripe the stripe it entered on.
     */
    static void exit(final Stripe stripe)
    {
        stripe.exit();
    }

    /** @throws IllegalStateException when a close has begun. */
    void checkOpen()
    {
        if (first.closing())
        {
            throw closedError();
        }
    }

    private IllegalStateException closedError()
    {
        return new IllegalStateException(name);
    }

    /**
     * First step of closing: new calls are refused from here on, once the caller has run
     * {@link AsymmetricFence#heavy()} (once for many guards), then {@link #awaitIdle()}, then {@link #closed()}.
     *
     * @return whether this call began the close; false when one already had (then {@link #awaitClosed()}).
     */
    synchronized boolean beginClose()
    {
        if (closeBegun)
        {
            return false;
        }
        closeBegun = true;
        for (int i = 0; i < ThreadStripes.ALL; i++)
        {
            stripes.get(i).markClosing();
        }
        return true;
    }

    /** Waits until no call is in flight on any stripe; after {@link #beginClose()} and {@link AsymmetricFence#heavy()}. */
    void awaitIdle()
    {
        for (int i = 0; i < ThreadStripes.ALL; i++)
        {
            final Stripe stripe = stripes.get(i);
            for (int looks = 0; stripe.inFlight() != 0; looks++)
            {
                if (looks < SPINS)
                {
                    Thread.onSpinWait();
                }
                else if (looks < 2 * SPINS)
                {
                    Thread.yield();
                }
                else
                {
                    LockSupport.parkNanos(PARK_NANOS);
                }
            }
        }
    }

    /** Last step of closing, whether it succeeded or not: releases the threads in {@link #awaitClosed()}. */
    synchronized void closed()
    {
        closeDone = true;
        notifyAll();
    }

    /** Waits until the close that has begun has finished (at once when none has begun: then nothing to wait for). */
    synchronized void awaitClosed()
    {
        boolean interrupted = false;
        while (closeBegun && !closeDone)
        {
            try
            {
                wait();
            }
            catch (final InterruptedException e)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }
}
