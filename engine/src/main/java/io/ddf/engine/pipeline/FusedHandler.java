package io.ddf.engine.pipeline;

import com.lmax.disruptor.EventHandler;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;

/**
 * One hasher, one inserter and the verdict delivery fused on one handler thread. With a single hasher and a single
 * inserter the stages would only hand each element from thread to thread, and on a 2-core machine every hand-off
 * costs more than the ~45 ns of hashing and insertion it would spread: measured with
 * {@code bench/run.sh PipelineTiming qht 1048576 10000000 8}, three handler threads gave 3.7 M elements/s and
 * this one handler 11.3 M/s (the sequential filter: 22 M/s). Verdicts stay in ring order because one thread takes
 * every element.
 */
final class FusedHandler implements EventHandler<PipelineEvent>
{
    /** Name of the handler thread. */
    static final String NAME = "ddf-pipeline-fused";

    private final VerdictHandler delivery;
    private final FailureRecorder failures;

    FusedHandler(final VerdictHandler delivery, final FailureRecorder failures)
    {
        this.delivery = delivery;
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
        if (event.failure == null)
        {
            try
            {
                final DuplicateFilter filter = event.filter;
                final long hash = filter.hash(event.buffer, 0, event.length);
                event.hash = hash;
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
}
