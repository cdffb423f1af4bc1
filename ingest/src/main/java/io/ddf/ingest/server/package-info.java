/**
 * The {@code ddf serve} daemon: RESP2/RESP3 with RedisBloom's commands over the filters of a data directory, and a
 * raw TCP feed. {@link io.ddf.ingest.server.DdfServer} wires the parts together; the request path is an adapter, a
 * conductor and a writer, as in Aeron's driver ({@code ClientCommandAdapter}, {@code DriverConductor},
 * {@code ClientProxy}), and like Garnet it runs every command of a read in one pass and writes the replies straight
 * into the connection's send buffer.
 *
 * <h2>A BF.ADD, from the socket to its reply</h2>
 * <ol>
 * <li>The bytes arrive on the connection's event loop: {@link io.ddf.ingest.server.RespConnection#channelRead}, the
 * one object of the connection (its {@link io.ddf.ingest.server.RespConnection.State State} says whether commands
 * run now), hands them to its {@link io.ddf.ingest.server.RespDecoder}.</li>
 * <li>The decoder (the adapter) cuts every complete command of the input into its {@code ByteBuf[]} (small arguments
 * copied into reused buffers), enforcing the limits (argument and request sizes, the unauthenticated limits, the
 * daemon's input budget), and runs them one after the other through the connection while it accepts commands.</li>
 * <li>{@link io.ddf.ingest.server.Conductor#run} (the logic) finds the {@link io.ddf.ingest.server.Command} by the
 * bytes of its name, asks the {@link io.ddf.ingest.server.Authorizer}, checks the arity, queues it under MULTI, or
 * runs its handler, counting the run on the command's own {@link io.ddf.ingest.server.CommandStats}; an error the
 * handler throws becomes the command's error reply there.</li>
 * <li>The handler is the one {@link io.ddf.ingest.server.RedisBloomCommands} registered for BF.ADD: it looks at which
 * store holds the key ({@link io.ddf.ingest.server.FilterStore#kind}) and runs the command there. For a filter that
 * grows (RedisBloom's semantics, the default for a missing key), {@link io.ddf.ingest.server.ScalingCommands} hashes
 * the item where the decoder left it, adds it to the chain and places the verdict in the
 * {@link io.ddf.ingest.server.ReplyWriter} at once (a missing chain is made off the event loop while the connection
 * waits, {@link io.ddf.ingest.server.FilterStore#create(io.ddf.ingest.redisbloom.Reply.Create)}, then the command runs
 * again). For ddf's fixed-size filters (a {@code KIND}, or {@code --past-capacity forget}),
 * {@link io.ddf.ingest.server.FilterCommands} leases the key's filter from the
 * {@link io.ddf.ingest.server.FilterStore} (a missing one is created off the event loop while the connection waits,
 * then the command runs again) and calls {@link io.ddf.ingest.server.Session#judge}, as the next steps tell.</li>
 * <li>The connection places the command's reply in its {@link io.ddf.ingest.server.ReplyWriter} and submits the item
 * to its {@link io.ddf.ingest.server.VerdictRing}: inline (the default) the event loop streams it into the filter and
 * writes the verdict once the row is stored; with {@code --execution pipeline} it is published to the Disruptor
 * pipeline, and the {@link io.ddf.ingest.server.VerdictRouter} hands the verdict back.</li>
 * <li>After the command, the writer (the proxy) encodes every reply whose place in the order has come: {@code :1}
 * (RESP3 {@code #t}) when the item was unseen. The writer alone chooses between RESP2 and RESP3.</li>
 * <li>When the read is done ({@link io.ddf.ingest.server.RespConnection#channelReadComplete}), a flush is queued on the
 * event loop: once every connection of this pass has been read and run, the writer hands the connection's replies,
 * in one buffer, to its gate of the {@link io.ddf.ingest.server.DurabilityBarrier}, which writes and flushes them
 * (under {@code --fsync always}, once the writes they acknowledge are on the device).</li>
 * </ol>
 *
 * <h2>Where the next features plug in</h2>
 * <ul>
 * <li>ACL users (issue 23): an {@link io.ddf.ingest.server.Authorizer} over each command's ACL categories, name and
 * key positions ({@link io.ddf.ingest.server.Command}, the same data COMMAND INFO serves), and the connection's user;
 * TLS: a {@link io.ddf.ingest.server.TransportSecurity} that puts an {@code SslHandler} in front of the RESP port's
 * and the raw feed's pipelines and an {@code HttpsConfigurator} on the metrics endpoint.</li>
 * <li>{@code --fsync always} (issue 24): a {@link io.ddf.ingest.server.DurabilityBarrier}: each connection's gate
 * holds the replies that acknowledge writes until a {@link io.ddf.ingest.server.GroupCommit} has synced them, many
 * connections' writes sharing one sync.</li>
 * <li>RedisBloom's semantics (issue 22): {@link io.ddf.ingest.server.RedisBloomCommands} lists every BF.* and CF.*
 * command once and routes each key to the filters that grow ({@link io.ddf.ingest.server.ScalingCommands} over
 * {@code ingest.redisbloom}'s semantics, which answer {@link io.ddf.ingest.redisbloom.Reply} values the writer
 * encodes) or to ddf's fixed-size ones; a command whose arguments pass {@code --max-bulk-bytes} (LOADCHUNK's dump
 * chunks, up to RedisBloom's 16 MiB) says so with {@link io.ddf.ingest.server.Command#largeArguments(long)}, which the
 * decoder asks ({@link io.ddf.ingest.server.RespDecoder.LargeArguments}).</li>
 * </ul>
 */
package io.ddf.ingest.server;
