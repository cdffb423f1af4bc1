package io.ddf.engine.composite;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The controller of a race test: parks one designated thread the first time it reaches a given point of a given
 * block's claim for a given generation ({@link BlockedFifoProbe}), lets the test know, and holds it there until the
 * test releases it, or until a rotation waits for it (a rotation held back by a claimer: the thread is then let go,
 * as it could not be late past that rotation); every other thread, and every other point, passes straight through.
 * The interleaving is then the test's, not the scheduler's. The waits have a bound only so that a wrong scenario
 * fails instead of hanging.
 */
final class LateThreadProbe implements BlockedFifoProbe
{
    private static final long HANG_SECONDS = 10;

    private final Point point;
    private final long generation;
    private final long block;
    private final CountDownLatch parked = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile Thread late;
    private volatile long heldBack = -1;

    /**
     * @param point      where to park.
     * @param generation the late thread's generation.
     * @param block      the block whose claim it parks in.
     */
    LateThreadProbe(final Point point, final long generation, final long block)
    {
        this.point = point;
        this.generation = generation;
        this.block = block;
    }

    /** Names the thread to park (before it starts). */
    void designate(final Thread thread)
    {
        late = thread;
    }

    @Override
    public void reached(final Point at, final long atGeneration, final long atBlock)
    {
        if (at == Point.ROTATION_WAITS)
        {
            // the rotation waits for the parked thread (the only other one), which therefore cannot be late past it
            heldBack = atGeneration;
            release();
            return;
        }
        if (Thread.currentThread() != late || at != point || atGeneration != generation || atBlock != block ||
            parked.getCount() == 0)
        {
            return;
        }
        parked.countDown();
        try
        {
            if (!released.await(HANG_SECONDS, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("the parked thread was never released");
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until the late thread is parked.
     *
     * @throws AssertionError when it does not get there (the scenario does not lead it to the point).
     */
    void awaitParked() throws InterruptedException
    {
        if (!parked.await(HANG_SECONDS, TimeUnit.SECONDS))
        {
            throw new AssertionError("the late thread never reached " + point + " of block " + block +
                " for generation " + generation);
        }
    }

    /** @return the generation whose rotation waited for the parked thread (and let it go on), or −1. */
    long heldBack()
    {
        return heldBack;
    }

    /** Lets the late thread go on. */
    void release()
    {
        released.countDown();
    }
}
