package io.ddf.engine.pipeline;

import io.ddf.engine.Operation;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;

/**
 * One hasher, one inserter and the verdict delivery fused on one handler thread. With a single hasher and a single
 * inserter the stages would only hand each element from thread to thread, and on a 2-core machine every hand-off
 * costs more than the ~45 ns of hashing and insertion it would spread: measured with
 * {@code bench/run.sh PipelineTiming qht 1048576 10000000 8}, three handler threads gave 3.7 M elements/s and
 * this one handler 11.3 M/s (the sequential filter: 22 M/s). Verdicts stay in ring order because one thread takes
 * every element.
 *
 * <p>With {@code prefetch = G > 0} it works on the Disruptor's batches in groups of G: it hashes the next G events
 * of the batch and touches their rows (a plain read each, {@link io.ddf.engine.DuplicateFilter#touchHash}) before updating the first, so
 * that for a table larger than the caches the G cache misses overlap instead of queueing one behind the other.
 *
 * <p>A slot of packed elements ({@code FilterPipelineBuilder.longsPerSlot}) is judged with the filter's batch
 * {@code stream(long[], ...)}, which touches its rows ahead itself. Measured with
 * {@code PipelineTiming qht BITS N 8 1 1 phased 8 4096 3 single 256 - - K} from one producer: K = 1, 16, 64, 128,
 * 256 gave 0.46×, 0.78×, 1.09–1.11×, 1.09×, 0.94× the direct {@code stream(long)} loop at 1 Mbit, and at 1 Gbit
 * 0.75× (K = 1), 1.99× (16), 2.00× (64): the handler's CPU per element fell from 39 to 15 ns at 1 Mbit and from
 * 129 to 44 ns at 1 Gbit, the producer's from 21 to 4 ns.
 */
final class FusedHandler implements EventHandler<PipelineEvent>
{
    /** Name of the handler thread. */
    static final String NAME = "ddf-pipeline-fused";

    private final VerdictHandler delivery;
    private final FailureRecorder failures;
    private final int prefetch;
    private final RingBuffer<PipelineEvent> ring;

    /** The sequence after the last one handled; the next batch starts there. */
    private long nextSequence;
    private long batchEnd = -1;
    /** Events below this sequence (and at or after the current one) are hashed and their rows touched. */
    private long touchedUpTo;
    /**
     * Every touch's word, added up and never read: the store keeps the touch's load, which the JIT would remove as
     * dead code if its value went nowhere (a store to a field of an object that escapes is not removed).
     */
    @SuppressWarnings("PMD.UnusedPrivateField")
    private long sink;

    FusedHandler(final VerdictHandler delivery, final FailureRecorder failures, final int prefetch,
        final RingBuffer<PipelineEvent> ring)
    {
        this.delivery = delivery;
        this.failures = failures;
        this.prefetch = prefetch;
        this.ring = ring;
    }

    @Override
    public void onStart()
    {
        Thread.currentThread().setName(NAME);
    }

    @Override
    public void onBatchStart(final long batchSize, final long queueDepth)
    {
        batchEnd = nextSequence + batchSize - 1;
    }

    @Override
    public void onEvent(final PipelineEvent event, final long sequence, final boolean endOfBatch)
    {
        nextSequence = sequence + 1;
        if (event.count > 0)
        {
            onPacked(event, sequence, endOfBatch);
            return;
        }
        if (prefetch > 0 && sequence >= touchedUpTo)
        {
            touch(sequence);
        }
        final boolean hashed = prefetch > 0 || event.hashed;
        if (event.failure == null)
        {
            try
            {
                final DuplicateFilter filter = event.filter;
                final long hash = hashed ? event.hash : filter.hash(event.buffer, 0, event.length);
                event.verdict = event.operation == Operation.STREAM ?
                    filter.streamHash(hash) :
                    filter.containsHash(hash) ? Verdict.DUPLICATE : Verdict.UNSEEN;
            }
            catch (final RuntimeException | Error e)
            {
                failures.handleEventException(e, sequence, event);
            }
        }
        delivery.onEvent(event, sequence, endOfBatch);
    }

    /** A slot of packed elements: judged with the filter's batch path, then their verdicts delivered in order. */
    private void onPacked(final PipelineEvent event, final long sequence, final boolean endOfBatch)
    {
        if (event.failure == null)
        {
            try
            {
                final DuplicateFilter filter = event.filter;
                if (event.hashes)
                {
                    judgeHashes(event);
                }
                else if (event.operation == Operation.STREAM)
                {
                    filter.stream(event.longs, 0, event.count, event.duplicates);
                }
                else
                {
                    for (int i = 0; i < event.count; i++)
                    {
                        event.duplicates[i] = filter.contains(event.longs[i]);
                    }
                }
            }
            catch (final RuntimeException | Error e)
            {
                failures.handleEventException(e, sequence, event);
            }
        }
        delivery.onPacked(event, endOfBatch);
    }

    /**
     * A slot of packed hashes: their rows touched first, so that the cache misses of the slot overlap, then each
     * judged as {@code stream(e)} or {@code contains(e)} judges it: {@code streamHash} / {@code containsHash} of
     * {@code hash(e)}.
     */
    private void judgeHashes(final PipelineEvent event)
    {
        final DuplicateFilter filter = event.filter;
        final long[] hashes = event.longs;
        final int count = event.count;
        long touched = 0;
        for (int i = 0; i < count; i++)
        {
            touched += filter.touchHash(hashes[i]);
        }
        sink += touched;
        final boolean stream = event.operation == Operation.STREAM;
        for (int i = 0; i < count; i++)
        {
            event.duplicates[i] = stream ? filter.streamHash(hashes[i]) == Verdict.DUPLICATE :
                filter.containsHash(hashes[i]);
        }
    }

    /** Hashes the next {@code prefetch} events of the batch from {@code from} on and touches their rows. */
    private void touch(final long from)
    {
        final long end = Math.max(from, Math.min(batchEnd, from + prefetch - 1));
        for (long s = from; s <= end; s++)
        {
            final PipelineEvent event = ring.get(s);
            if (event.failure == null && event.count == 0)
            {
                try
                {
                    final DuplicateFilter filter = event.filter;
                    final long hash = event.hashed ? event.hash : filter.hash(event.buffer, 0, event.length);
                    event.hash = hash;
                    sink += filter.touchHash(hash);
                }
                catch (final RuntimeException | Error e)
                {
                    failures.handleEventException(e, s, event); // reported in the element's place
                }
            }
        }
        touchedUpTo = end + 1;
    }
}
