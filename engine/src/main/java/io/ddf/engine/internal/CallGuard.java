package io.ddf.engine.internal;

import io.ddf.persistence.platform.AsymmetricFence;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The calls in flight on one filter, so that closing it waits for them and refuses new ones before it seals and
 * unmaps the file (issue 30: a close that sealed while a write was still landing left a checksum the file no longer
 * matched, and a write after the unmap crashed the JVM).
 *
 * <p>A call {@link #tryEnter enters} on its thread's stripe ({@link ThreadStripes}) and {@link #exit}s after.
 * Entering counts the call in (a plain load and an opaque store of the stripe's count, which only this thread
 * writes), then, past an {@link AsymmetricFence#light() asymmetric fence's light side} (no instruction on x86), reads
 * whether the filter is closing; exiting counts it out with a release store. No locked instruction, in either mode,
 * for the first {@code STRIPES - 1} threads; the overflow stripe's threads count atomically. Closing marks the filter
 * closing (a volatile store), runs the fence's heavy side, then waits until every stripe counts nothing in flight: a
 * call either was counted in when the heavy side returned, and is waited for, or read the mark and refuses itself
 * (counted out again; the filter throws {@link IllegalStateException}). Once idle, the filter's memory is the
 * closer's: the calls' release stores made their writes visible to its acquire loads.
 */
final class CallGuard
{
    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);
    /** Longs from one stripe's count to the next: 128 bytes, so that no two threads' counts share a cache line pair. */
    private static final int SPACING = 16;
    /** How long a closer spins on a stripe before it yields, then parks between looks. */
    private static final int SPINS = 100;
    private static final long PARK_NANOS = 20_000;

    /** Which stripe belongs to the calling thread (the counters' stripe too). */
    private final ThreadStripes stripes = new ThreadStripes();
    /** Each stripe's calls in flight, at (stripe + 1) × SPACING: padding before the first and after the last. */
    private final long[] inFlight = new long[(ThreadStripes.STRIPES + 2) * SPACING];
    /** What refused calls say: the filter's file. */
    private final String name;
    private volatile boolean closing;
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
    int enter()
    {
        final int stripe = tryEnter();
        if (stripe < 0)
        {
            throw closedError();
        }
        return stripe;
    }

    /**
     * Counts the calling thread's call in, or refuses it when the filter is closing.
     *
     * @return the thread's stripe, to {@link #exit} on; -1 when the filter is closing or closed (nothing counted).
     */
    int tryEnter()
    {
        final int stripe = stripes.mine();
        final int at = (stripe + 1) * SPACING;
        if (stripe != ThreadStripes.OVERFLOW)
        {
            COUNT.setOpaque(inFlight, at, inFlight[at] + 1);
            AsymmetricFence.light();
        }
        else
        {
            COUNT.getAndAdd(inFlight, at, 1L); // a full fence of its own
        }
        if (closing)
        {
            exit(stripe);
            return -1;
        }
        return stripe;
    }

    /**
     * Counts a call out: its writes are visible to the closer that sees the count drop.
     *
     * @param stripe the stripe it entered on.
     */
    void exit(final int stripe)
    {
        final int at = (stripe + 1) * SPACING;
        if (stripe != ThreadStripes.OVERFLOW)
        {
            COUNT.setRelease(inFlight, at, inFlight[at] - 1);
        }
        else
        {
            COUNT.getAndAdd(inFlight, at, -1L);
        }
    }

    /** @throws IllegalStateException when a close has begun. */
    void checkOpen()
    {
        if (closing)
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
        closing = true;
        return true;
    }

    /** Waits until no call is in flight on any stripe; after {@link #beginClose()} and {@link AsymmetricFence#heavy()}. */
    void awaitIdle()
    {
        for (int stripe = 0; stripe < ThreadStripes.STRIPES; stripe++)
        {
            final int at = (stripe + 1) * SPACING;
            for (int looks = 0; (long)COUNT.getAcquire(inFlight, at) != 0; looks++)
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
