package io.ddf.engine.pipeline;

import com.lmax.disruptor.EventHandler;
import io.ddf.engine.Verdict;

import java.util.concurrent.atomic.AtomicLong;

/** The final handler, after every inserter: hands each verdict (or failure) to the listener in ring order. */
final class VerdictHandler implements EventHandler<PipelineEvent>
{
    static final String NAME = "ddf-pipeline-verdict";

    private final VerdictListener listener;
    private final FailureRecorder failures;
    /**
     * Elements of packed slots beyond the first of each, handed to the listener: what the slots' sequence does not
     * count ({@link FilterPipeline#delivered}). Written by this handler's thread alone, by an ordered store once per
     * packed slot, no locked instruction; never touched when nothing is packed.
     */
    private final AtomicLong packedBeyondFirst = new AtomicLong();

    VerdictHandler(final VerdictListener listener, final FailureRecorder failures)
    {
        this.listener = listener;
        this.failures = failures;
    }

    @Override
    public void onStart()
    {
        Thread.currentThread().setName(NAME);
    }

    @Override
    public void onEvent(final PipelineEvent event, final long sequence, final boolean endOfBatch)
    {
        final long tag = event.tag;
        final Verdict verdict = event.verdict;
        final Throwable failure = event.failure;
        event.filter = null; // do not keep a filter reachable from an idle slot
        event.verdict = null;
        event.failure = null;
        if (failure == RingPublisher.SKIPPED)
        {
            // given up by its publisher, who got an exception instead of a sequence: nobody waits for it
        }
        else if (failure != null)
        {
            deliverError(tag, failure);
        }
        else
        {
            deliver(tag, verdict);
        }
        if (endOfBatch)
        {
            endOfBatch();
        }
    }

    /**
     * Delivers the verdicts of a slot of packed elements, in order, tags {@code event.tag + i}.
     *
     * @param event      the slot.
     * @param endOfBatch whether it ends the Disruptor's batch.
     */
    void onPacked(final PipelineEvent event, final boolean endOfBatch)
    {
        final long tag = event.tag;
        final int count = event.count;
        final Throwable failure = event.failure;
        event.filter = null;
        event.failure = null;
        if (failure != RingPublisher.SKIPPED)
        {
            for (int i = 0; i < count; i++)
            {
                if (failure != null)
                {
                    deliverError(tag + i, failure);
                }
                else
                {
                    deliver(tag + i, event.duplicates[i] ? Verdict.DUPLICATE : Verdict.UNSEEN);
                }
            }
        }
        packedBeyondFirst.lazySet(packedBeyondFirst.get() + count - 1);
        if (endOfBatch)
        {
            endOfBatch();
        }
    }

    /** @return elements of packed slots beyond the first of each, handed to the listener so far (any thread). */
    long packedBeyondFirst()
    {
        return packedBeyondFirst.get();
    }

    private void deliver(final long tag, final Verdict verdict)
    {
        try
        {
            listener.onVerdict(tag, verdict);
        }
        catch (final Throwable t)
        {
            failures.record(t);
            deliverError(tag, t);
        }
    }

    private void endOfBatch()
    {
        try
        {
            listener.onEndOfBatch();
        }
        catch (final Throwable t)
        {
            failures.record(t);
        }
    }

    private void deliverError(final long tag, final Throwable failure)
    {
        try
        {
            listener.onError(tag, failure);
        }
        catch (final Throwable t)
        {
            failures.record(t);
        }
    }
}
