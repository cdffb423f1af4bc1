package io.ddf.engine.pipeline;

import io.ddf.engine.Operation;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.ddf.engine.DuplicateFilter;
import org.agrona.DirectBuffer;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * An LMAX Disruptor ring in front of one or more filters: producers publish elements (copied into preallocated
 * slots), handlers hash them in batches, then insert; verdicts reach a {@link VerdictListener} in publication
 * order. For partitioned filters (the quotient filters: partition = row) insertion handlers own disjoint
 * partitions and take their elements in ring order, so the verdicts are exactly the sequential filter's; other
 * filters are inserted by a single handler.
 *
 * <pre>
 *   producers (any threads)          hashers              inserters               verdict handler
 *   publish: copy element  ---&gt;  ddf-pipeline-hash-i  ---&gt;  ddf-pipeline-insert-j  ---&gt;  ddf-pipeline-verdict
 *   into slot seq (multi-         seq % H == i:          owns the events routed   listener.onVerdict, in
 *   producer sequencer)           hash, pick inserter    to j, in ring order       ring order
 * </pre>
 *
 * <p>With one hasher and one inserter (the default) the three stages run fused on a single handler thread,
 * {@code ddf-pipeline-fused} ({@link FusedHandler} says why); the ring then batches, applies backpressure and
 * orders, and hashing and insertion overlap with the producers' work.
 *
 * <p>Publication: {@link #publish} claims one slot; {@link #publishBatch} claims up to a ring's worth at once,
 * copies, and publishes the range, so the sequencer's cost is paid once per batch. By default any number of
 * threads may publish (the Disruptor's multi-producer sequencer); {@link FilterPipelineBuilder#singleProducer}
 * promises one and uses the single-producer sequencer, whose claim is no locked instruction and whose handlers
 * need not scan a per-slot availability buffer (the largest cost besides the filter in the handler's profile:
 * {@code MultiProducerSequencer.getHighestPublishedSequence}). {@link FilterPipelineBuilder#hashOnPublish}
 * moves hashing to the publisher. No atomic of the pipeline's own is touched per element: closing relies on the
 * sequencer's cursor (see {@link RingPublisher}, where every publication takes one shape).
 *
 * <p>Routing: hasher {@code i} of {@code H} hashes the slots with {@code sequence % H == i}. For a
 * {@link DuplicateFilter#partitioned() partitioned} filter, inserter {@code j} of {@code I} takes an element iff
 * {@code reduce(mix64(partition + mix(identity of the filter)), I) == j}, so no two inserters touch one row and
 * each row sees its elements in ring order: the verdicts are exactly those of the sequential filter fed in ring
 * order (the ring sequence plays the part of the SQF paper §5.2's position field). A filter that is <em>not</em>
 * partitioned is handled wholly by inserter 0, in ring order, so its verdicts are the sequential ones too, without
 * parallel insertion. {@link Operation#CONTAINS} takes the same route, so it is judged after every earlier element
 * of its partition.
 *
 * <p>Contract: {@link #publish} blocks while the ring is full (backpressure, never a drop); {@link #tryPublish}
 * returns -1 instead; both refuse an element longer than the configured maximum with an IllegalArgumentException
 * naming both lengths, and throw IllegalStateException once {@link #close} has begun. Publishing allocates
 * nothing. A failure while hashing or inserting an element (e.g. its filter was closed) or in the listener is
 * counted ({@link #failures()}) and reported to {@link VerdictListener#onError} in the element's place; the
 * pipeline keeps running. {@link #close} stops accepting, drains every published element to the listener, then
 * stops and joins the handler threads (with {@code singleProducer()}, close must not race a publication). Filters
 * must stay open until the pipeline is closed.
 *
 * <p>The SQF paper: S. Dutta, A. Narang and S. K. Bera, "Streaming Quotient Filter: A Near Optimal Approximate
 * Duplicate Detection Approach for Data Streams", PVLDB 6(8), 2013.
 */
public final class FilterPipeline implements AutoCloseable
{
    private final long closeTimeoutNanos;
    private final Disruptor<PipelineEvent> disruptor;
    private final RingBuffer<PipelineEvent> ring;
    private final VerdictHandler verdictHandler;
    private final InsertHandler[] inserters;
    /** The handler that delivers verdicts: the verdict handler, or the fused handler. */
    private final EventHandler<PipelineEvent> lastStage;
    private final FailureRecorder failures = new FailureRecorder();
    private final PipelineThreads threads = new PipelineThreads();
    /** Claims, fills and publishes slots for the producers; refuses them once {@link #close} has begun. */
    private final RingPublisher publisher;
    private final Object closeLock = new Object();
    private boolean terminated;

    FilterPipeline(final int ringSize, final int maxElementBytes, final int hasherCount, final int inserterCount,
        final WaitStrategy waitStrategy, final VerdictListener listener, final int prefetch,
        final long closeTimeoutNanos, final boolean singleProducer, final boolean hashOnPublish,
        final int longsPerSlot)
    {
        this.closeTimeoutNanos = closeTimeoutNanos;
        this.disruptor = new Disruptor<>(() -> new PipelineEvent(maxElementBytes, longsPerSlot), ringSize, threads,
            singleProducer ? ProducerType.SINGLE : ProducerType.MULTI, waitStrategy);
        disruptor.setDefaultExceptionHandler(failures);
        verdictHandler = new VerdictHandler(listener, failures);
        if (hasherCount == 1 && inserterCount == 1)
        {
            inserters = new InsertHandler[0];
            final FusedHandler fused = new FusedHandler(verdictHandler, failures, prefetch, disruptor.getRingBuffer());
            lastStage = fused;
            disruptor.handleEventsWith(fused);
        }
        else
        {
            final HashHandler[] hashers = new HashHandler[hasherCount];
            for (int i = 0; i < hasherCount; i++)
            {
                hashers[i] = new HashHandler(i, hasherCount, inserterCount);
            }
            inserters = new InsertHandler[inserterCount];
            for (int j = 0; j < inserterCount; j++)
            {
                inserters[j] = new InsertHandler(j, prefetch, disruptor.getRingBuffer());
            }
            final VerdictHandler[] last = {verdictHandler};
            lastStage = verdictHandler;
            disruptor.handleEventsWith(hashers).then(inserters).then(last);
        }
        ring = disruptor.start();
        publisher = new RingPublisher(ring, maxElementBytes, !singleProducer, hashOnPublish, longsPerSlot);
    }

    /** @return a builder with defaults that suit a 2-core machine. */
    public static FilterPipelineBuilder builder()
    {
        return new FilterPipelineBuilder();
    }

    /**
     * @param filter    the filter to judge the element against.
     * @param operation stream or contains.
     * @param element   holds the element's bytes (copied before this returns).
     * @param offset    of the first byte.
     * @param length    in bytes, at most the configured maximum.
     * @param tag       handed back with the verdict.
     * @return the element's sequence in the ring.
     */
    public long publish(final DuplicateFilter filter, final Operation operation, final DirectBuffer element,
        final int offset, final int length, final long tag)
    {
        publisher.checkElement(filter, operation, length);
        Objects.checkFromIndexSize(offset, length, element.capacity());
        return publisher.publish(RingPublisher.BUFFER, true, filter, operation, tag, 1, element, 0, null, null, offset,
            length);
    }

    /**
     * @param filter    the filter to judge the element against.
     * @param operation stream or contains.
     * @param element   holds the element's bytes (copied before this returns).
     * @param offset    of the first byte.
     * @param length    in bytes, at most the configured maximum.
     * @param tag       handed back with the verdict.
     * @return the element's sequence in the ring.
     */
    public long publish(final DuplicateFilter filter, final Operation operation, final byte[] element,
        final int offset, final int length, final long tag)
    {
        publisher.checkElement(filter, operation, length);
        Objects.checkFromIndexSize(offset, length, element.length);
        return publisher.publish(RingPublisher.ARRAY, true, filter, operation, tag, 1, element, 0, null, null, offset,
            length);
    }

    /**
     * Publishes a long as its 8 little-endian bytes, the element {@code DuplicateFilter.stream(long)} judges.
     *
     * @param filter    the filter to judge the element against.
     * @param operation stream or contains.
     * @param element   the element.
     * @param tag       handed back with the verdict.
     * @return the element's sequence in the ring.
     */
    public long publish(final DuplicateFilter filter, final Operation operation, final long element, final long tag)
    {
        publisher.checkElement(filter, operation, Long.BYTES);
        return publisher.publish(RingPublisher.LONG, true, filter, operation, tag, 1, null, element, null, null, 0,
            Long.BYTES);
    }

    /**
     * Like {@link #publish(DuplicateFilter, Operation, DirectBuffer, int, int, long)} but never waits.
     *
     * @param filter    the filter.
     * @param operation stream or contains.
     * @param element   holds the element's bytes.
     * @param offset    of the first byte.
     * @param length    in bytes.
     * @param tag       handed back with the verdict.
     * @return the element's sequence, or -1 when the ring is full.
     */
    public long tryPublish(final DuplicateFilter filter, final Operation operation, final DirectBuffer element,
        final int offset, final int length, final long tag)
    {
        publisher.checkElement(filter, operation, length);
        Objects.checkFromIndexSize(offset, length, element.capacity());
        return publisher.publish(RingPublisher.BUFFER, false, filter, operation, tag, 1, element, 0, null, null, offset,
            length);
    }

    /**
     * Like {@link #publish(DuplicateFilter, Operation, byte[], int, int, long)} but never waits.
     *
     * @param filter    the filter.
     * @param operation stream or contains.
     * @param element   holds the element's bytes.
     * @param offset    of the first byte.
     * @param length    in bytes.
     * @param tag       handed back with the verdict.
     * @return the element's sequence, or -1 when the ring is full.
     */
    public long tryPublish(final DuplicateFilter filter, final Operation operation, final byte[] element,
        final int offset, final int length, final long tag)
    {
        publisher.checkElement(filter, operation, length);
        Objects.checkFromIndexSize(offset, length, element.length);
        return publisher.publish(RingPublisher.ARRAY, false, filter, operation, tag, 1, element, 0, null, null, offset,
            length);
    }

    /**
     * Like {@link #publish(DuplicateFilter, Operation, long, long)} but never waits.
     *
     * @param filter    the filter.
     * @param operation stream or contains.
     * @param element   the element, as its 8 little-endian bytes.
     * @param tag       handed back with the verdict.
     * @return the element's sequence, or -1 when the ring is full.
     */
    public long tryPublish(final DuplicateFilter filter, final Operation operation, final long element,
        final long tag)
    {
        publisher.checkElement(filter, operation, Long.BYTES);
        return publisher.publish(RingPublisher.LONG, false, filter, operation, tag, 1, null, element, null, null, 0,
            Long.BYTES);
    }

    /**
     * Publishes {@code count} longs (each as its 8 little-endian bytes) in as few claims as the ring allows: claim
     * up to a ring's worth of slots at once, copy, publish the range. Element {@code i} gets tag
     * {@code firstTag + i}. Blocks while the ring is full. Allocates nothing.
     *
     * @param filter    the filter to judge the elements against.
     * @param operation stream or contains.
     * @param elements  holds the elements.
     * @param offset    index of the first element.
     * @param count     number of elements (0 publishes nothing).
     * @param firstTag  tag of the first element; the others follow it.
     * @return the sequence of the last element, or -1 when {@code count} is 0.
     */
    public long publishBatch(final DuplicateFilter filter, final Operation operation, final long[] elements,
        final int offset, final int count, final long firstTag)
    {
        publisher.checkElement(filter, operation, Long.BYTES);
        Objects.checkFromIndexSize(offset, count, elements.length);
        return publisher.publish(publisher.packs() ? RingPublisher.PACKED_LONGS : RingPublisher.LONGS, true, filter,
            operation, firstTag, count, elements, 0, null, null, offset, Long.BYTES);
    }

    /**
     * Publishes {@code count} elements given by their hashes ({@code filter.hash(e)}, computed by the publisher),
     * each judged as {@code stream(e)} / {@code contains(e)} would judge it ({@code streamHash} /
     * {@code containsHash} of the hash): the verdicts are the elements' own, whatever their length. Packed
     * {@code longsPerSlot} to a slot when the pipeline packs (the fused handler touches a slot's rows before it
     * judges them), else one to a slot. Element {@code i} gets tag {@code firstTag + i}. Blocks while the ring is
     * full. Allocates nothing.
     *
     * @param filter    the filter to judge the elements against (the one that hashed them).
     * @param operation stream or contains.
     * @param hashes    the elements' hashes.
     * @param offset    index of the first.
     * @param count     number of elements (0 publishes nothing).
     * @param firstTag  tag of the first element; the others follow it.
     * @return the sequence of the last slot, or -1 when {@code count} is 0.
     */
    public long publishHashes(final DuplicateFilter filter, final Operation operation, final long[] hashes,
        final int offset, final int count, final long firstTag)
    {
        publisher.checkElement(filter, operation, 0);
        Objects.checkFromIndexSize(offset, count, hashes.length);
        return publisher.publish(publisher.packs() ? RingPublisher.PACKED_HASHES : RingPublisher.HASHES, true,
            filter, operation, firstTag, count, hashes, 0, null, null, offset, 0);
    }

    /**
     * Publishes {@code count} elements held in one buffer, element {@code i} at {@code offsets[from + i]} of
     * {@code lengths[from + i]} bytes with tag {@code firstTag + i}, in as few claims as the ring allows (claim,
     * copy, publish the range). Every element is checked before any is published: a bad one throws
     * IllegalArgumentException (or IndexOutOfBoundsException) naming it, and nothing is published. Blocks while
     * the ring is full. Allocates nothing.
     *
     * @param filter    the filter to judge the elements against.
     * @param operation stream or contains.
     * @param buffer    holds the elements.
     * @param offsets   of each element in the buffer.
     * @param lengths   of each element, in bytes, at most the configured maximum.
     * @param from      index in {@code offsets} and {@code lengths} of the first element.
     * @param count     number of elements (0 publishes nothing).
     * @param firstTag  tag of the first element; the others follow it.
     * @return the sequence of the last element, or -1 when {@code count} is 0.
     */
    public long publishBatch(final DuplicateFilter filter, final Operation operation, final DirectBuffer buffer,
        final int[] offsets, final int[] lengths, final int from, final int count, final long firstTag)
    {
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(operation, "operation");
        Objects.checkFromIndexSize(from, count, offsets.length);
        Objects.checkFromIndexSize(from, count, lengths.length);
        for (int i = from; i < from + count; i++)
        {
            publisher.checkElement(filter, operation, lengths[i]);
            Objects.checkFromIndexSize(offsets[i], lengths[i], buffer.capacity());
        }
        return publisher.publish(RingPublisher.BUFFER_ELEMENTS, true, filter, operation, firstTag, count, buffer, 0,
            offsets, lengths, from, 0);
    }

    /** @return the largest element accepted, in bytes. */
    public int maxElementBytes()
    {
        return publisher.maxElementBytes();
    }

    /** @return slots in the ring. */
    public int ringSize()
    {
        return ring.getBufferSize();
    }

    /** @return number of elements whose verdict (or failure) the listener has been handed so far. */
    public long delivered()
    {
        // slots whose verdicts are out, plus the further elements of packed ones; the slots' sequence is read first,
        // so a slot counted in the second term but not yet in the first makes the sum lag, never run ahead
        final long slots = disruptor.getSequenceValueFor(lastStage) + 1;
        return slots + verdictHandler.packedBeyondFirst();
    }

    /** @return number of failures so far: handler exceptions and exceptions thrown by the listener. */
    public long failures()
    {
        return failures.count();
    }

    /** @return the most recent failure, or null. */
    public Throwable lastFailure()
    {
        return failures.last();
    }

    /**
     * Stops accepting (later publications throw IllegalStateException), waits until every element published so far
     * has been handed to the listener, then halts the Disruptor and joins its threads. Idempotent. Must not be
     * called from the listener.
     *
     * @throws IllegalStateException when called from a handler thread, or when the listener made no progress for
     *                               the close timeout (the pipeline is halted anyway; the message says how many
     *                               verdicts were not delivered).
     */
    @Override
    public void close()
    {
        if (threads.isHandlerThread())
        {
            throw new IllegalStateException("close() called from the pipeline's own thread (the listener?): it " +
                "would wait for itself");
        }
        synchronized (closeLock)
        {
            if (terminated)
            {
                return;
            }
            publisher.close();
            final long[] lastAndSeen = drain();
            final long last = lastAndSeen[0];
            final long stuckAt = lastAndSeen[1];
            if (stuckAt >= last)
            {
                try
                {
                    disruptor.shutdown(closeTimeoutNanos, TimeUnit.NANOSECONDS); // no backlog left: halts at once
                }
                catch (final TimeoutException e)
                {
                    disruptor.halt();
                }
            }
            else
            {
                disruptor.halt(); // the listener is stuck: give up on the backlog (reported below)
            }
            terminated = true;
            boolean interrupted = false;
            int alive;
            try
            {
                alive = threads.join(TimeUnit.NANOSECONDS.toMillis(closeTimeoutNanos) + 1);
            }
            catch (final InterruptedException e)
            {
                interrupted = true;
                alive = -1;
            }
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
            if (stuckAt < last)
            {
                throw new IllegalStateException("the listener made no progress for " +
                    TimeUnit.NANOSECONDS.toMillis(closeTimeoutNanos) + " ms: the verdicts of " + (last - stuckAt) +
                    " elements were not delivered; pipeline halted");
            }
            if (alive > 0)
            {
                throw new IllegalStateException(alive + " pipeline threads did not stop");
            }
        }
    }

    /**
     * Waits, parking rather than spinning (the handlers need the cores), until the last stage has passed every
     * sequence claimed so far, or until it has made no progress for the close timeout. The publisher is closed
     * before this reads the cursor: a publisher claiming later sees it and gives its slot up
     * ({@code RingPublisher.claim}).
     * With one producer ({@link FilterPipelineBuilder#singleProducer}) the caller of close has the producer's
     * publications before it by contract.
     *
     * @return the last claimed sequence and the last stage's sequence when the wait ended.
     */
    private long[] drain()
    {
        long seen = disruptor.getSequenceValueFor(lastStage);
        long progressAt = System.nanoTime();
        while (true)
        {
            final long last = ring.getCursor();
            final long now = disruptor.getSequenceValueFor(lastStage);
            if (now >= last)
            {
                return new long[] {last, now};
            }
            if (now != seen)
            {
                seen = now;
                progressAt = System.nanoTime();
            }
            else if (System.nanoTime() - progressAt > closeTimeoutNanos)
            {
                return new long[] {last, now};
            }
            LockSupport.parkNanos(50_000);
        }
    }
}
