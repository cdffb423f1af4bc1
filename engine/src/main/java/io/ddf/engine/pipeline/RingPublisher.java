package io.ddf.engine.pipeline;

import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Operation;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The producers' side of a {@link FilterPipeline}: every publication, one element or a batch, of bytes or of longs,
 * packed or not, waiting or not, takes the one shape of {@link #publish}: claim slots (up to a ring's worth at a
 * time), fill each from the source, and publish the claimed range whatever happens, a slot whose copy failed
 * marked so that the listener hears of its element in its place. The sources differ only in how one slot is
 * filled ({@link #fillSlot}); they are told apart by a code, not by an object, so that publishing allocates
 * nothing.
 */
final class RingPublisher
{
    /** One element: {@code elements} is a DirectBuffer, bytes [offset, offset + length). */
    static final int BUFFER = 0;
    /** One element: {@code elements} is a byte[], bytes [offset, offset + length). */
    static final int ARRAY = 1;
    /** One element: {@code value}, as its 8 little-endian bytes. */
    static final int LONG = 2;
    /** {@code count} elements: {@code elements} is a long[] from {@code offset}, each as its 8 little-endian bytes. */
    static final int LONGS = 3;
    /** As {@link #LONGS}, {@code longsPerSlot} elements to a slot. */
    static final int PACKED_LONGS = 4;
    /** {@code count} elements of a DirectBuffer: element i at {@code offsets[offset + i]}, {@code lengths[...]}. */
    static final int BUFFER_ELEMENTS = 5;
    /** {@code count} elements given by their hashes: {@code elements} is a long[] of {@code hash(e)} from offset. */
    static final int HASHES = 6;
    /** As {@link #HASHES}, {@code longsPerSlot} to a slot. */
    static final int PACKED_HASHES = 7;

    /** Marks a slot whose element copy failed, until the copy completes (preallocated: no stack trace). */
    private static final RuntimeException COPY_FAILED = new CopyFailedException();
    /**
     * Marks a slot claimed by a publisher that then saw the pipeline closing: the slot is published (the ring's
     * sequence must advance) but no stage judges it and the listener hears nothing, since its publisher got an
     * IllegalStateException instead of a sequence.
     */
    static final RuntimeException SKIPPED = new ClosedWhilePublishingException();

    private final RingBuffer<PipelineEvent> ring;
    private final int maxElementBytes;
    /**
     * Many publishers (the Disruptor's multi-producer sequencer, whose claim is an atomic getAndAdd on its cursor):
     * a publisher checks {@link #closed} again after its claim, so close needs no count of publishers in flight.
     */
    private final boolean multiProducer;
    /** Publishers hash their elements (the hash stage moves to the producer thread). */
    private final boolean hashOnPublish;
    /** Elements of a long batch per slot (1: one per slot). */
    private final int longsPerSlot;
    private volatile boolean closed;

    RingPublisher(final RingBuffer<PipelineEvent> ring, final int maxElementBytes, final boolean multiProducer,
        final boolean hashOnPublish, final int longsPerSlot)
    {
        this.ring = ring;
        this.maxElementBytes = maxElementBytes;
        this.multiProducer = multiProducer;
        this.hashOnPublish = hashOnPublish;
        this.longsPerSlot = longsPerSlot;
    }

    /** Refuses every later claim; a claim under way either is seen by the closer's drain or gives its slots up. */
    void close()
    {
        closed = true;
    }

    /** @return whether {@link #close()} was called. */
    boolean closed()
    {
        return closed;
    }

    /** @return the largest element accepted, in bytes. */
    int maxElementBytes()
    {
        return maxElementBytes;
    }

    /** @return whether batches of longs are packed several to a slot. */
    boolean packs()
    {
        return longsPerSlot > 1;
    }

    /**
     * @throws NullPointerException     for a null filter or operation.
     * @throws IllegalArgumentException for a length above the maximum, or negative.
     */
    void checkElement(final DuplicateFilter filter, final Operation operation, final int length)
    {
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(operation, "operation");
        if (length > maxElementBytes)
        {
            throw new IllegalArgumentException("element of " + length + " bytes is longer than the pipeline's " +
                "maximum of " + maxElementBytes + " bytes (FilterPipelineBuilder.maxElementBytes)");
        }
        if (length < 0)
        {
            throw new IllegalArgumentException("negative element length " + length);
        }
    }

    /**
     * The one shape of a publication (the caller has checked the arguments).
     *
     * @param source    where the elements are: {@link #BUFFER}, {@link #ARRAY}, {@link #LONG}, {@link #LONGS},
     *                  {@link #PACKED_LONGS}, {@link #BUFFER_ELEMENTS}, {@link #HASHES} or {@link #PACKED_HASHES}.
     * @param wait      block while the ring is full; otherwise give up (return -1) when it cannot take them all.
     * @param filter    the filter to judge the elements against.
     * @param operation stream or contains.
     * @param firstTag  tag of the first element; the others follow it.
     * @param count     number of elements (1 for the one-element sources).
     * @param elements  the DirectBuffer, byte[] or long[] holding them, or null for {@link #LONG}.
     * @param value     the element of {@link #LONG}.
     * @param offsets   of {@link #BUFFER_ELEMENTS}' elements, else null.
     * @param lengths   of {@link #BUFFER_ELEMENTS}' elements, else null.
     * @param offset    of the one element's first byte, or the index of the first element.
     * @param length    the one element's length in bytes (8 for longs).
     * @return the sequence of the last element, or -1 when {@code count} is 0 or, not waiting, the ring is full.
     */
    long publish(final int source, final boolean wait, final DuplicateFilter filter, final Operation operation,
        final long firstTag, final int count, final Object elements, final long value, final int[] offsets,
        final int[] lengths, final int offset, final int length)
    {
        final int perSlot = source == PACKED_LONGS || source == PACKED_HASHES ? longsPerSlot : 1;
        long last = -1;
        int done = 0;
        while (done < count)
        {
            final int slots = Math.min(ring.getBufferSize(), (count - done + perSlot - 1) / perSlot);
            final long high = claim(slots, wait);
            if (high < 0)
            {
                return -1;
            }
            final long low = high - slots + 1;
            int filled = 0;
            try
            {
                for (; filled < slots; filled++)
                {
                    final int from = done + filled * perSlot;
                    fillSlot(source, ring.get(low + filled), filter, operation, firstTag + from, from,
                        Math.min(perSlot, count - from), elements, value, offsets, lengths, offset, length);
                }
            }
            finally
            {
                // slots a failure did not reach still carry their tags, so the listener hears of each element
                for (int j = filled; j < slots; j++)
                {
                    final int from = done + j * perSlot;
                    fill(ring.get(low + j), filter, operation, 0, firstTag + from).count =
                        perSlot > 1 ? Math.min(perSlot, count - from) : 0;
                }
                ring.publish(low, high);
            }
            done = Math.min(count, done + slots * perSlot);
            last = high;
        }
        return last;
    }

    /** Fills one claimed slot with element {@code from} of the source ({@code n} of them when packed). */
    private void fillSlot(final int source, final PipelineEvent slot, final DuplicateFilter filter,
        final Operation operation, final long tag, final int from, final int n, final Object elements,
        final long value, final int[] offsets, final int[] lengths, final int offset, final int length)
    {
        switch (source)
        {
            case BUFFER ->
            {
                ((DirectBuffer)elements).getBytes(offset, fill(slot, filter, operation, length, tag).bytes, 0, length);
                copied(slot);
            }
            case ARRAY ->
            {
                System.arraycopy(elements, offset, fill(slot, filter, operation, length, tag).bytes, 0, length);
                copied(slot);
            }
            case LONG -> copied(fill(slot, filter, operation, Long.BYTES, tag), value);
            case LONGS -> copied(fill(slot, filter, operation, Long.BYTES, tag), ((long[])elements)[offset + from]);
            case PACKED_LONGS, PACKED_HASHES ->
            {
                System.arraycopy(elements, offset + from, fill(slot, filter, operation, Long.BYTES, tag).longs, 0, n);
                slot.count = n;
                slot.hashes = source == PACKED_HASHES;
                slot.failure = null;
            }
            case HASHES ->
            {
                final PipelineEvent event = fill(slot, filter, operation, 0, tag);
                event.hash = ((long[])elements)[offset + from];
                event.hashed = true;
                event.failure = null;
            }
            case BUFFER_ELEMENTS ->
            {
                final int e = offset + from;
                ((DirectBuffer)elements).getBytes(offsets[e], fill(slot, filter, operation, lengths[e], tag).bytes, 0,
                    lengths[e]);
                copied(slot);
            }
            default -> throw new IllegalArgumentException("no source " + source);
        }
    }

    /**
     * Claims {@code n} consecutive slots. A publisher checks {@link #closed} before claiming (so that it does not
     * wait on the ring of a closed pipeline) and, with many producers, again after: the claim is an atomic
     * getAndAdd (or compareAndSet) on the sequencer's cursor and {@link FilterPipeline#close} sets {@code closed}
     * before it reads that cursor, so either close sees the claim and drains it, or the publisher sees
     * {@code closed} and gives its slots up. No counter of publishers in flight, so no atomic of ours per element.
     *
     * @param n    slots, at most the ring's size.
     * @param wait block while the ring is full.
     * @return the highest claimed sequence (the caller must publish the range), or -1 when not waiting and the
     *         ring is full.
     */
    private long claim(final int n, final boolean wait)
    {
        if (closed)
        {
            throw closedException();
        }
        final long high;
        if (wait)
        {
            high = ring.next(n);
        }
        else
        {
            try
            {
                high = ring.tryNext(n);
            }
            catch (final InsufficientCapacityException e)
            {
                return -1;
            }
        }
        if (multiProducer && closed)
        {
            final long low = high - n + 1;
            for (long s = low; s <= high; s++)
            {
                final PipelineEvent event = ring.get(s);
                event.filter = null;
                event.failure = SKIPPED;
                event.count = 0;
            }
            ring.publish(low, high);
            throw closedException();
        }
        return high;
    }

    private static IllegalStateException closedException()
    {
        return new IllegalStateException("pipeline is closed");
    }

    /** Sets a slot's routing inputs, marked {@link #COPY_FAILED} until its element is in. */
    private static PipelineEvent fill(final PipelineEvent event, final DuplicateFilter filter,
        final Operation operation, final int length, final long tag)
    {
        event.filter = filter;
        event.operation = operation;
        event.length = length;
        event.tag = tag;
        event.verdict = null;
        event.failure = COPY_FAILED; // cleared once the bytes are in
        event.hashed = false;
        event.hashes = false;
        event.count = 0;
        return event;
    }

    /**
     * The element's bytes are in its slot: with {@link FilterPipelineBuilder#hashOnPublish} the publisher hashes
     * them here (the same bytes and method a handler would use, so the same hash), then the slot is good.
     */
    private void copied(final PipelineEvent event)
    {
        if (hashOnPublish)
        {
            event.hash = event.filter.hash(event.buffer, 0, event.length);
            event.hashed = true;
        }
        event.failure = null;
    }

    /**
     * Writes a long as its 8 little-endian bytes, hashed with {@link FilterPipelineBuilder#hashOnPublish} by
     * {@code hash(long)}: the hash of those bytes (the contract {@code stream(long)} rests on) by the filter's
     * faster path for a long.
     */
    private void copied(final PipelineEvent event, final long element)
    {
        event.buffer.putLong(0, element, ByteOrder.LITTLE_ENDIAN);
        if (hashOnPublish)
        {
            event.hash = event.filter.hash(element);
            event.hashed = true;
        }
        event.failure = null;
    }

    /** Marks a slot given up by a publisher that saw the pipeline closing; never reaches the listener. */
    static final class ClosedWhilePublishingException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        ClosedWhilePublishingException()
        {
            super("the pipeline closed while this slot was being claimed (its publisher got the exception)", null,
                false, false);
        }
    }

    /** The failure a listener sees for an element whose publisher's copy threw (the publisher got the cause). */
    static final class CopyFailedException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        CopyFailedException()
        {
            super("the element could not be copied into the ring (its publisher got the exception)", null, false,
                false);
        }
    }
}
