package io.ddf.engine.pipeline;

import com.lmax.disruptor.EventHandler;
import io.ddf.engine.Verdict;

/** The final handler, after every inserter: hands each verdict (or failure) to the listener in ring order. */
final class VerdictHandler implements EventHandler<PipelineEvent>
{
    static final String NAME = "ddf-pipeline-verdict";

    private final VerdictListener listener;
    private final FailureRecorder failures;

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
        if (failure == FilterPipeline.SKIPPED)
        {
            // given up by its publisher, who got an exception instead of a sequence: nobody waits for it
        }
        else if (failure != null)
        {
            deliverError(tag, failure);
        }
        else
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
        if (endOfBatch)
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
