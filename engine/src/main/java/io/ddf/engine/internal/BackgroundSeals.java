package io.ddf.engine.internal;

import io.ddf.engine.spi.TimedCore;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The thread that does the cores' deferred work ({@link TimedCore#doDeferredWork()}: the seal of a windowed
 * fifo-bloom's slot whose use ended before its sweep did, which a nearly idle filter would otherwise pay in the call
 * that turns, 1–5 ms at 10^9), off the threads that stream: one daemon thread per process, started with the first
 * filter whose core has such work and parked while none is due (no CPU when idle). A turn that leaves work wakes it
 * (a queue offer and an unpark, from the turning call); it then steps that filter until the work is done, then
 * readies the next turn's pages ({@link TimedCore#prepareNextTurn()}), each step
 * counted in as one of the filter's calls ({@link CallGuard}), so that a close waits for the step in flight and the
 * thread, refused, drops the filter: it never touches an unmapped file.
 */
final class BackgroundSeals
{
    /** How long work that cannot be done yet (a late claimer still in its slot) waits before the next try. */
    private static final long RETRY_NANOS = 1_000_000;
    /**
     * Steps between two yields of this thread. Woken by a turn, it can be put on the turning caller's core ahead of
     * it (a thread that slept runs first), and on two cores the caller then waited for a core for milliseconds in the
     * turn that began an aged-cuckoo pass at 10^9 (`bench window-rotation`, its run-queue wait). A step is a few
     * microseconds. Measured (bench/results/window/aged-rotation-1e9-yield-2026-11-30.txt, six sets of 24 turns
     * each): that turn went over 1 ms of wall time in 5 sets without the yield, in 1 with it.
     */
    private static final int YIELD_EVERY = 8;
    private static final ConcurrentLinkedQueue<Entry> DUE = new ConcurrentLinkedQueue<>();
    private static final AtomicLong STEPS = new AtomicLong();
    private static final AtomicLong UNITS = new AtomicLong();
    private static final AtomicLong PREPARED = new AtomicLong();
    private static final Object LOCK = new Object();
    private static volatile Thread thread;

    private BackgroundSeals()
    {
    }

    /**
     * Gives the core's deferred work, if it has any, to the thread; before the filter's first call (an open's pending
     * work wakes the thread at once).
     *
     * @param core  the filter's core.
     * @param guard the filter's calls, which a close waits for.
     */
    static void attach(final TimedCore core, final CallGuard guard)
    {
        start();
        core.onDeferredWork(new Entry(core, guard)::wake);
    }

    /**
     * @return steps the thread has done, units of work (map words) they did, and units the next turns' preparations
     *     did (pages), since the process started.
     */
    static long[] done()
    {
        return new long[] {STEPS.get(), UNITS.get(), PREPARED.get()};
    }

    private static void start()
    {
        synchronized (LOCK)
        {
            if (thread == null)
            {
                final Thread t = new Thread(BackgroundSeals::loop, "ddf-background-seals");
                t.setDaemon(true);
                thread = t;
                t.start();
            }
        }
    }

    private static void loop()
    {
        final List<Entry> later = new ArrayList<>();
        while (true)
        {
            final Entry entry = DUE.poll();
            if (entry == null)
            {
                if (later.isEmpty())
                {
                    LockSupport.park();
                }
                else
                {
                    LockSupport.parkNanos(RETRY_NANOS);
                    later.forEach(Entry::wake);
                    later.clear();
                }
                continue;
            }
            entry.queued.set(false); // a wake from now on queues it again
            if (!entry.run())
            {
                later.add(entry);
            }
        }
    }

    /** A filter's core and calls, queued at most once at a time. */
    private static final class Entry
    {
        private final TimedCore core;
        private final CallGuard guard;
        private final AtomicBoolean queued = new AtomicBoolean();

        Entry(final TimedCore core, final CallGuard guard)
        {
            this.core = core;
            this.guard = guard;
        }

        /** From a stream call, or the thread itself: must not block. */
        void wake()
        {
            if (queued.compareAndSet(false, true))
            {
                DUE.offer(this);
                LockSupport.unpark(thread);
            }
        }

        /** @return false when work is due that cannot be done yet (to try again later). */
        boolean run()
        {
            while (true)
            {
                final Stripe stripe = guard.tryEnter();
                if (stripe == null)
                {
                    return true; // closing or closed: dropped
                }
                final long done;
                long prepared = 0;
                try
                {
                    done = core.doDeferredWork();
                    if (done == TimedCore.NO_DEFERRED_WORK)
                    {
                        prepared = core.prepareNextTurn(); // the seals first: they are due, this only saves faults
                    }
                }
                finally
                {
                    CallGuard.exit(stripe);
                }
                if (done == TimedCore.NO_DEFERRED_WORK)
                {
                    PREPARED.addAndGet(prepared);
                    return true;
                }
                if (done == 0)
                {
                    return false;
                }
                if (STEPS.incrementAndGet() % YIELD_EVERY == 0)
                {
                    Thread.yield(); // a caller this thread's wake-up put behind it on the same core runs first
                }
                UNITS.addAndGet(done);
            }
        }
    }
}
