package io.ddf.ingest.server;

import io.ddf.engine.Verdict;
import io.ddf.engine.pipeline.VerdictListener;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Routes the pipeline's verdicts back to the connection that published each element, by tag.
 *
 * <p>A tag is {@code generation << SLOT_BITS | slot}: the slot indexes a table of live connections, and the
 * generation (unique per connection) makes a verdict for a connection that has gone, whose slot now belongs to
 * another, harmless: it is dropped. Slot 0 is for barriers ({@link #barrier()}).
 */
final class VerdictRouter implements VerdictListener
{
    /** Bits of a tag that hold the slot. */
    static final int SLOT_BITS = 24;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;

    private final AtomicReferenceArray<Connection> slots;
    private final ArrayDeque<Integer> free = new ArrayDeque<>();
    private final AtomicLong generations = new AtomicLong();
    private final Map<Long, CountDownLatch> barriers = new ConcurrentHashMap<>();

    /** @param capacity the most connections at once. */
    VerdictRouter(final int capacity)
    {
        if (capacity + 1 > SLOT_MASK)
        {
            throw new IllegalArgumentException("too many connections: " + capacity);
        }
        slots = new AtomicReferenceArray<>(capacity + 1);
        for (int i = 1; i <= capacity; i++)
        {
            free.add(i);
        }
    }

    /**
     * @param connection a new connection.
     * @return its tag, or -1 when every slot is taken.
     */
    synchronized long register(final Connection connection)
    {
        final Integer slot = free.poll();
        if (slot == null)
        {
            return -1;
        }
        final long tag = generations.incrementAndGet() << SLOT_BITS | slot;
        slots.set(slot, connection);
        return tag;
    }

    /** @param tag a tag from {@link #register}, whose connection has closed. */
    synchronized void unregister(final long tag)
    {
        final int slot = (int)(tag & SLOT_MASK);
        final Connection connection = slots.get(slot);
        if (connection != null && connection.tag() == tag)
        {
            slots.set(slot, null);
            free.add(slot);
        }
    }

    /**
     * A barrier: publish an element with the tag's {@link Barrier#tag()}; {@link Barrier#await()} returns once its
     * verdict has arrived, so once every element published before it has been judged.
     *
     * @return a new barrier.
     */
    Barrier barrier()
    {
        final long tag = generations.incrementAndGet() << SLOT_BITS;
        final CountDownLatch latch = new CountDownLatch(1);
        barriers.put(tag, latch);
        return new Barrier(tag, latch);
    }

    @Override
    public void onVerdict(final long tag, final Verdict verdict)
    {
        final int slot = (int)(tag & SLOT_MASK);
        if (slot == 0)
        {
            final CountDownLatch latch = barriers.remove(tag);
            if (latch != null)
            {
                latch.countDown();
            }
            return;
        }
        final Connection connection = slots.get(slot);
        if (connection != null && connection.tag() == tag)
        {
            connection.deliver(verdict);
        }
    }

    /**
     * A point in the verdict stream.
     *
     * @param tag   to publish the barrier element with.
     * @param latch counted down when its verdict arrives.
     */
    record Barrier(long tag, CountDownLatch latch)
    {
        /** Waits for the barrier's verdict. */
        void await()
        {
            boolean interrupted = false;
            while (true)
            {
                try
                {
                    latch.await();
                    break;
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
}
