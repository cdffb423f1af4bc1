package io.ddf.engine.pipeline;

import io.ddf.engine.Operation;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import io.ddf.engine.Verdict;

/**
 * Insertion handler {@code index}: runs {@code streamHash} or {@code containsHash} for the events routed to it
 * (see {@link HashHandler}), in ring order. Since it alone handles its partitions, and a quotient filter's verdict
 * depends only on its row's history, the verdicts are the sequential filter's.
 *
 * <p>With {@code prefetch = G > 0}, before deciding the next G events of its batch it first touches their rows
 * ({@code containsHash}, plain loads for narrow rows) one after the other, so that their cache misses overlap
 * instead of each waiting behind the previous update's locked instruction.
 */
final class InsertHandler implements EventHandler<PipelineEvent>
{
    private final String name;
    private final int index;
    private final int prefetch;
    private final RingBuffer<PipelineEvent> ring;

    private long nextSequence;
    private long batchEnd = -1;
    private long touchedUpTo;
    /**
     * Every touch's word, added up and never read: the store keeps the touch's load, which the JIT would remove as
     * dead code if its value went nowhere (a store to a field of an object that escapes is not removed).
     */
    @SuppressWarnings("PMD.UnusedPrivateField")
    private long sink;

    InsertHandler(final int index, final int prefetch, final RingBuffer<PipelineEvent> ring)
    {
        this.name = "ddf-pipeline-insert-" + index;
        this.index = index;
        this.prefetch = prefetch;
        this.ring = ring;
    }

    @Override
    public void onStart()
    {
        Thread.currentThread().setName(name);
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
        if (prefetch > 0 && sequence >= touchedUpTo)
        {
            touch(sequence);
        }
        if (event.inserter != index || event.failure != null)
        {
            return;
        }
        if (event.operation == Operation.STREAM)
        {
            event.verdict = event.filter.streamHash(event.hash);
        }
        else
        {
            event.verdict = event.filter.containsHash(event.hash) ? Verdict.DUPLICATE : Verdict.UNSEEN;
        }
    }

    private void touch(final long from)
    {
        final long end = Math.min(batchEnd, from + prefetch - 1);
        for (long s = from; s <= end; s++)
        {
            final PipelineEvent event = ring.get(s);
            if (event.inserter == index && event.failure == null)
            {
                try
                {
                    sink += event.filter.touchHash(event.hash);
                }
                catch (final RuntimeException e)
                {
                    // only a hint: the real operation reports the failure
                }
            }
        }
        touchedUpTo = Math.max(end, from) + 1;
    }
}
