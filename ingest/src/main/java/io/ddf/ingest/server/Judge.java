package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.pipeline.Operation;
import org.agrona.DirectBuffer;

/**
 * Where the daemon sends every element to be judged: the Disruptor {@link PipelineJudge}. Verdicts
 * reach the {@link io.ddf.engine.pipeline.VerdictListener} given at construction, in publication order.
 */
interface Judge extends AutoCloseable
{
    /**
     * Judges an element; blocks while the ring is full.
     *
     * @param filter    the filter.
     * @param operation stream or contains.
     * @param element   holds the bytes (copied before this returns).
     * @param offset    of the first byte.
     * @param length    in bytes, at most {@link #maxElementBytes()}.
     * @param tag       handed back with the verdict.
     */
    void publish(DuplicateFilter filter, Operation operation, byte[] element, int offset, int length, long tag);

    /**
     * @param filter    the filter.
     * @param operation stream or contains.
     * @param element   holds the bytes (copied before this returns).
     * @param offset    of the first byte.
     * @param length    in bytes, at most {@link #maxElementBytes()}.
     * @param tag       handed back with the verdict.
     */
    void publish(DuplicateFilter filter, Operation operation, DirectBuffer element, int offset, int length, long tag);

    /** @return the longest element accepted. */
    int maxElementBytes();

    /** Stops accepting and delivers the verdict of every element published. */
    @Override
    void close();
}
