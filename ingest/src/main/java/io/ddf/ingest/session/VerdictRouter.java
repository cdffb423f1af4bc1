package io.ddf.ingest.session;

import io.ddf.engine.Verdict;
import io.ddf.engine.pipeline.VerdictListener;
import io.ddf.ingest.dispatch.Conductor;
import io.ddf.ingest.log.OneLine;
import io.ddf.persistence.log.LogUnavailableException;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

/**
 * Routes the pipeline's verdicts back to the connection that published each element, by tag.
 *
 * <p>A connection's tag is {@code generation << 36 | slot << 12}: the slot indexes a table of live connections,
 * and the generation (unique per connection, modulo 2^28) makes a verdict for a connection that has gone, whose
 * slot now belongs to another, harmless: it is dropped. The low {@value #INDEX_BITS} bits are free for the
 * elements of one batch publication, which the pipeline tags {@code tag + i} (the raw feed's packed slots). Slot 0
 * is for barriers ({@link #barrier()}).
 */
public final class VerdictRouter implements VerdictListener
{
    /** Bits of a tag below the slot: the index of an element within one batch publication. */
    static final int INDEX_BITS = 12;
    /** Most elements one batch publication may tag from one connection tag. */
    public static final int MAX_BATCH = 1 << INDEX_BITS;
    /** Bits of a tag that hold the slot. */
    static final int SLOT_BITS = 24;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    private static final long CONNECTION_MASK = ~(MAX_BATCH - 1L);

    private final AtomicReferenceArray<VerdictRing> slots;
    private final ArrayDeque<Integer> free = new ArrayDeque<>();
    private final AtomicLong generations = new AtomicLong();
    private final Map<Long, CountDownLatch> barriers = new ConcurrentHashMap<>();

    /** The refusal a failed append makes ({@link #refusalText}), or null. */
    private volatile Function<LogUnavailableException, String> refusalText = failure -> null;

    /** @param capacity the most connections at once. */
    public VerdictRouter(final int capacity)
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

    private long tag(final long generation, final long slot)
    {
        return generation << (SLOT_BITS + INDEX_BITS) | slot << INDEX_BITS;
    }

    private static int slotOf(final long tag)
    {
        return (int)(tag >>> INDEX_BITS & SLOT_MASK);
    }

    /**
     * @param connection a new connection's verdicts.
     * @return its tag (never 0), or 0 when every slot is taken.
     */
    public synchronized long register(final VerdictRing connection)
    {
        final Integer slot = free.poll();
        if (slot == null)
        {
            return 0;
        }
        final long tag = tag(generations.incrementAndGet(), slot);
        slots.set(slot, connection);
        return tag;
    }

    /** @param tag a tag from {@link #register}, whose connection has closed. */
    public synchronized void unregister(final long tag)
    {
        final int slot = slotOf(tag);
        final VerdictRing connection = slots.get(slot);
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
    public Barrier barrier()
    {
        final long tag = tag(generations.incrementAndGet(), 0);
        final CountDownLatch latch = new CountDownLatch(1);
        barriers.put(tag, latch);
        return new Barrier(tag, latch);
    }

    @Override
    public void onVerdict(final long tag, final Verdict verdict)
    {
        final VerdictRing connection = connectionOf(tag);
        if (connection != null)
        {
            connection.deliver(verdict);
        }
    }

    /**
     * The pipeline could not judge an element (its filter threw: e.g. its change log could not be written): the
     * connection finds the failure in the element's place, so that its reply is whole (a RESP error there; the feed
     * closes). Before, the default only logged it, and the connection's replies waited for a verdict that never came.
     */
    @Override
    public void onError(final long tag, final Throwable failure)
    {
        final VerdictRing connection = connectionOf(tag);
        if (connection != null)
        {
            connection.deliverFailure(failure instanceof LogUnavailableException logFailure ?
                Conductor.logFailureReply(refusalText.apply(logFailure), logFailure) :
                "ERR no verdict: " + OneLine.of(failure));
        }
    }

    /** @param text the refusal a failed append makes, or null: the daemon's durability. */
    public void refusalText(final Function<LogUnavailableException, String> text)
    {
        refusalText = text;
    }

    /** @return the connection the element of {@code tag} is for, or null: a barrier's (now passed) or a gone one's. */
    private VerdictRing connectionOf(final long tag)
    {
        final int slot = slotOf(tag);
        if (slot == 0)
        {
            final CountDownLatch latch = barriers.remove(tag);
            if (latch != null)
            {
                latch.countDown();
            }
            return null;
        }
        final VerdictRing connection = slots.get(slot);
        return connection != null && connection.tag() == (tag & CONNECTION_MASK) ? connection : null;
    }

    /**
     * A point in the verdict stream.
     *
     * @param tag   to publish the barrier element with.
     * @param latch counted down when its verdict arrives.
     */
    public record Barrier(long tag, CountDownLatch latch)
    {
        /** Waits for the barrier's verdict. */
        public void await()
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
