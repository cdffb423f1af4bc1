package io.ddf.engine.pipeline;

import com.lmax.disruptor.ExceptionHandler;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The Disruptor exception handler of the hashing and insertion handlers: counts the failure and marks the event,
 * so that the verdict handler reports it to the listener's {@link VerdictListener#onError} in the element's
 * place. It never throws, so no handler thread dies.
 */
final class FailureRecorder implements ExceptionHandler<PipelineEvent>
{
    private final AtomicLong count = new AtomicLong();
    private volatile Throwable last;

    void record(final Throwable failure)
    {
        count.incrementAndGet();
        last = failure;
    }

    long count()
    {
        return count.get();
    }

    Throwable last()
    {
        return last;
    }

    @Override
    public void handleEventException(final Throwable failure, final long sequence, final PipelineEvent event)
    {
        record(failure);
        if (event != null && event.failure == null)
        {
            event.failure = failure;
        }
    }

    @Override
    public void handleOnStartException(final Throwable failure)
    {
        record(failure);
    }

    @Override
    public void handleOnShutdownException(final Throwable failure)
    {
        record(failure);
    }
}
