package io.ddf.engine.pipeline;

import io.ddf.engine.DuplicateFilter;
import org.agrona.DirectBuffer;

/**
 * An LMAX Disruptor ring in front of one or more filters: producers publish elements (copied into preallocated
 * slots), handlers hash them in batches, then insert; verdicts reach a {@link VerdictListener} in publication
 * order. For partitioned filters (the quotient filters: partition = row) insertion handlers own disjoint
 * partitions and take their elements in ring order, so the verdicts are exactly the sequential filter's; other
 * filters are inserted by a single handler.
 *
 * <p>API CONTRACT (implementation to be written): {@link #publish} blocks while the ring is full (backpressure,
 * never a drop); {@link #tryPublish} returns -1 instead; both refuse an element longer than the configured
 * maximum with an IllegalArgumentException naming both lengths. {@link #close} stops accepting, drains every
 * published element to the listener, then stops the handler threads.
 */
public final class FilterPipeline implements AutoCloseable
{
    FilterPipeline()
    {
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
        throw new UnsupportedOperationException("not yet implemented");
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
        throw new UnsupportedOperationException("not yet implemented");
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
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** @return the largest element accepted, in bytes. */
    public int maxElementBytes()
    {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** Stops accepting, delivers every published element's verdict, stops the handler threads. Idempotent. */
    @Override
    public void close()
    {
        throw new UnsupportedOperationException("not yet implemented");
    }
}
