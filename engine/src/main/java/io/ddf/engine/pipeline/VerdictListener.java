package io.ddf.engine.pipeline;

import io.ddf.engine.Operation;
import io.ddf.engine.Verdict;

/**
 * Receives the pipeline's verdicts, one call per published element, in publication order, from one thread.
 *
 * <p>Every published element gets exactly one call of {@link #onVerdict} or {@link #onError} (plus an
 * {@code onError} after an {@code onVerdict} that threw), in publication order. A listener must not close the
 * pipeline it listens to.
 */
@FunctionalInterface
public interface VerdictListener
{
    /**
     * @param tag     the tag given at publication (e.g. a connection and request id).
     * @param verdict for {@link Operation#STREAM}, the verdict; for {@link Operation#CONTAINS}, DUPLICATE when the
     *                filter holds the element.
     */
    void onVerdict(long tag, Verdict verdict);

    /**
     * The element's verdict could not be determined (hashing or the filter threw, e.g. because the filter was
     * closed) or {@link #onVerdict} threw while delivering it. The pipeline keeps running; it also counts the
     * failure ({@link FilterPipeline#failures()}). The default logs the failure as a warning through
     * {@link System.Logger}, so a failure is never silent; override it to answer the element's requester.
     *
     * @param tag     the tag given at publication.
     * @param failure what went wrong.
     */
    default void onError(final long tag, final Throwable failure)
    {
        System.getLogger(VerdictListener.class.getName()).log(System.Logger.Level.WARNING,
            "ddf pipeline: no verdict for element with tag " + tag, failure);
    }

    /**
     * Called after the last verdict of each of the ring's batches (the Disruptor's {@code endOfBatch}): the
     * moment to flush replies written for the batch once rather than per element. No more verdicts are waiting
     * then, so a listener that buffers must flush here. The default does nothing. A failure here is counted
     * ({@link FilterPipeline#failures()}) and the pipeline goes on.
     */
    default void onEndOfBatch()
    {
    }
}
