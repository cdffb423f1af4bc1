package io.ddf.engine.pipeline;

/** Configures a {@link FilterPipeline}. Defaults suit a 2-core machine. */
public final class FilterPipelineBuilder
{
    FilterPipelineBuilder()
    {
    }

    /**
     * @param ringSize slots in the ring, a power of two.
     * @return this.
     */
    public FilterPipelineBuilder ringSize(final int ringSize)
    {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * @param maxElementBytes the largest element accepted; each slot preallocates this many bytes.
     * @return this.
     */
    public FilterPipelineBuilder maxElementBytes(final int maxElementBytes)
    {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * @param hashers number of hashing handlers.
     * @return this.
     */
    public FilterPipelineBuilder hashers(final int hashers)
    {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * @param inserters number of insertion handlers (partitioned filters spread over them).
     * @return this.
     */
    public FilterPipelineBuilder inserters(final int inserters)
    {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * @param waitStrategy how idle handlers wait: {@code blocking}, {@code sleeping}, {@code yielding} or
     *                     {@code busy-spin}.
     * @return this.
     */
    public FilterPipelineBuilder waitStrategy(final String waitStrategy)
    {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * @param listener receives the verdicts in publication order.
     * @return this.
     */
    public FilterPipelineBuilder listener(final VerdictListener listener)
    {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** @return the started pipeline. */
    public FilterPipeline build()
    {
        throw new UnsupportedOperationException("not yet implemented");
    }
}
