package io.ddf.engine.pipeline;

import io.ddf.engine.Verdict;

/** Receives the pipeline's verdicts, one call per published element, in publication order, from one thread. */
@FunctionalInterface
public interface VerdictListener
{
    /**
     * @param tag     the tag given at publication (e.g. a connection and request id).
     * @param verdict for {@link Operation#STREAM}, the verdict; for {@link Operation#CONTAINS}, DUPLICATE when the
     *                filter holds the element.
     */
    void onVerdict(long tag, Verdict verdict);
}
