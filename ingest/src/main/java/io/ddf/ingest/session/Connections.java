package io.ddf.ingest.session;

import io.ddf.engine.pipeline.FilterPipeline;
import io.ddf.ingest.acl.Acl;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.Conductor;
import io.ddf.ingest.log.RateLimitedLog;
import io.ddf.ingest.resp.DurabilityBarrier;
import io.ddf.ingest.resp.InputBudget;

/**
 * What of the daemon every RESP connection uses: built once at start-up, handed to each {@link RespConnection}.
 *
 * @param config        the limits.
 * @param conductor     runs the commands a connection reads.
 * @param barrier       what a reply that acknowledges a write waits for (serve --fsync).
 * @param clients       every connection.
 * @param acl           the users.
 * @param inputBudget   the daemon-wide bound on input of commands not yet complete.
 * @param pipeline      where elements are judged under {@code --execution pipeline}.
 * @param connectionLog the rate-limited log of closed connections.
 * @param authLog       the rate-limited log of failed AUTHs.
 */
public record Connections(ServerConfig config, Conductor conductor, DurabilityBarrier barrier,
    ClientRegistry clients, Acl acl, InputBudget inputBudget, FilterPipeline pipeline, RateLimitedLog connectionLog,
    RateLimitedLog authLog)
{
}
