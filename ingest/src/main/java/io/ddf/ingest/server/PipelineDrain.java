package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Operation;
import io.ddf.engine.pipeline.FilterPipeline;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.session.VerdictRouter;

import java.util.function.Consumer;

/**
 * Returns once every element published so far for a filter has been judged: what a command that deletes, reads the
 * counts of, or dumps a filter waits for first (DEL, CF.DEL's counts, SCANDUMP), so that it sees every earlier write.
 */
final class PipelineDrain implements Consumer<DuplicateFilter>
{
    private final boolean nothingPublished;
    private final VerdictRouter router;
    private final FilterPipeline pipeline;

    /**
     * @param config   whether anything publishes into the pipeline.
     * @param router   hands the barrier's verdict back.
     * @param pipeline the pipeline.
     */
    PipelineDrain(final ServerConfig config, final VerdictRouter router, final FilterPipeline pipeline)
    {
        // inline and no raw feed through the ring: RESP elements (and feed records) are judged before their command
        // (read) returns, so there is nothing to wait for (and no event loop blocks on the pipeline's thread)
        this.nothingPublished = config.execution == ServerConfig.Execution.INLINE &&
            (config.feedPort < 0 || config.feedInline());
        this.router = router;
        this.pipeline = pipeline;
    }

    @Override
    public void accept(final DuplicateFilter filter)
    {
        if (nothingPublished)
        {
            return;
        }
        final VerdictRouter.Barrier barrier = router.barrier();
        pipeline.publish(filter, Operation.CONTAINS, new byte[1], 0, 1, barrier.tag());
        barrier.await();
    }
}
