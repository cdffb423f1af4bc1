package io.ddf.ingest.server;

import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.util.IntSupplier;

/**
 * An event loop's wait that polls its sockets without sleeping for a while after the last thing it did, then blocks
 * in {@code epoll_wait} as Netty's default does: under load the loop never sleeps, so a request arriving finds it
 * awake (no wake-up of a sleeping thread, no idle vCPU to resume); an idle daemon spends at most one spell of
 * polling per burst of requests, then no CPU at all.
 *
 * <p>Why: unpipelined clients ({@code redis-benchmark -c 50}) pay the daemon's sleep and wake-up once per request, and
 * on this PVM guest each trip through the kernel costs ~1 µs (a {@code getppid} loop: 990–1010 ns) and a sleeping
 * vCPU's wake-up far more. The measurement that chose it is in bench/README.md ("fsync vs Redis", session 9).
 *
 * <p>The poll is Netty's {@code selectNow} ({@code epoll_wait} with a zero timeout): when it finds events they are
 * returned for the loop to process (edge-triggered events must never be fetched and then dropped); when it finds
 * none within the spell it returns 0, so that the loop goes on to its tasks, the scheduled ones that fell due among
 * them (a loop that spun on {@link SelectStrategy#CONTINUE} or Netty's {@code BUSY_WAIT} would not run a timer until
 * a socket woke it), and comes back; after the spell it blocks ({@link SelectStrategy#SELECT}) until its next event
 * or timer. One instance per event loop: its clock is that loop's alone.
 */
final class SpinThenBlock implements SelectStrategy
{
    private final long spinNanos;
    private long lastWork = System.nanoTime();
    /** Whether the last answer was to block: the loop has been woken since, by an event or a timer. */
    private boolean blocked;

    private SpinThenBlock(final long spinNanos)
    {
        this.spinNanos = spinNanos;
    }

    /**
     * @param spinNanos how long a loop polls after its last event or task before it blocks; Long.MAX_VALUE: never
     *                  blocks (a core per loop, always busy).
     * @return a factory giving each event loop its own strategy.
     */
    static SelectStrategyFactory factory(final long spinNanos)
    {
        if (spinNanos <= 0)
        {
            throw new IllegalArgumentException("the spell of polling must be positive, got " + spinNanos + " ns");
        }
        return () -> new SpinThenBlock(spinNanos);
    }

    @Override
    public int calculateStrategy(final IntSupplier selectSupplier, final boolean hasTasks) throws Exception
    {
        final int ready = selectSupplier.get();
        if (ready > 0 || hasTasks || blocked)
        {
            blocked = false;
            lastWork = System.nanoTime();
            return ready;
        }
        if (System.nanoTime() - lastWork < spinNanos)
        {
            return 0;
        }
        blocked = true;
        return SelectStrategy.SELECT;
    }
}
