package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.pipeline.FilterPipeline;
import io.ddf.engine.pipeline.FilterPipelineBuilder;
import io.ddf.engine.pipeline.Operation;
import io.ddf.engine.pipeline.VerdictListener;
import org.agrona.DirectBuffer;

/** Judges through the engine's Disruptor {@link FilterPipeline}: one ring for the whole daemon. */
final class PipelineJudge implements Judge
{
    private final FilterPipeline pipeline;
    private final int maxElementBytes;

    /**
     * @param ringSize        slots in the ring, a power of two.
     * @param maxElementBytes the longest element.
     * @param waitStrategy    how idle handlers wait, or null for the pipeline's default.
     * @param listener        receives the verdicts.
     */
    PipelineJudge(final int ringSize, final int maxElementBytes, final String waitStrategy,
        final VerdictListener listener)
    {
        final FilterPipelineBuilder builder = FilterPipeline.builder()
            .ringSize(ringSize)
            .maxElementBytes(maxElementBytes)
            .listener(listener);
        if (waitStrategy != null)
        {
            builder.waitStrategy(waitStrategy);
        }
        this.pipeline = builder.build();
        this.maxElementBytes = maxElementBytes;
    }

    @Override
    public void publish(final DuplicateFilter filter, final Operation operation, final byte[] element,
        final int offset, final int length, final long tag)
    {
        pipeline.publish(filter, operation, element, offset, length, tag);
    }

    @Override
    public void publish(final DuplicateFilter filter, final Operation operation, final DirectBuffer element,
        final int offset, final int length, final long tag)
    {
        pipeline.publish(filter, operation, element, offset, length, tag);
    }

    @Override
    public int maxElementBytes()
    {
        return maxElementBytes;
    }

    @Override
    public void close()
    {
        pipeline.close();
    }
}
