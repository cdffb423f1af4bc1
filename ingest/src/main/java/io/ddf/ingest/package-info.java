/**
 * ddf's command line ({@code ddf pipe}, {@code tune}, {@code info}, {@code verify}, {@code migrate}) and the daemon
 * {@code ddf serve}: RESP2/RESP3 with RedisBloom's commands over the filters of a data directory, and a raw TCP feed.
 *
 * <h2>The daemon's packages, by job, and what each may use</h2>
 * Every edge points down this list (a package uses only those named after it); {@code PackageDirectionsTest} holds
 * the same map and fails the build on an edge it does not allow, {@code SourcePackageCyclesTest} (persistence) on a
 * cycle or a package over 30 files.
 * <table>
 * <caption>ingest's packages</caption>
 * <tr><th>package</th><th>its job</th><th>may use (besides the engine, Netty, the JDK)</th></tr>
 * <tr><td>{@code server}</td><td>start-up wiring: {@code DdfServer} builds every part and hands each what it uses;
 * {@code ServeCommand} (the options), {@code Transports} (event loops, listening sockets), {@code CommandFamilies}
 * (the one place that knows every command family). Nothing but the command line uses it.</td>
 * <td>everything below</td></tr>
 * <tr><td>{@code commands.redisbloom}</td><td>BF.* and CF.*: {@code RedisBloomCommands} registers each once and
 * routes a key to the filters that grow ({@code ScalingCommands}, over {@code redisbloom}'s semantics) or to ddf's
 * fixed-size ones ({@code FilterCommands}, {@code InsertCommand}, {@code CuckooCommands}, {@code ScanDump}).</td>
 * <td>dispatch, resp, store, redisbloom, config, acl, glob, log</td></tr>
 * <tr><td>{@code commands.server}</td><td>connection and server commands (PING, AUTH, HELLO, CLIENT, CONFIG, INFO,
 * EXISTS, TYPE, DEL, MODULE), MULTI/EXEC/DISCARD, COMMAND.</td><td>dispatch, resp, store, info, security, config,
 * acl, glob, log</td></tr>
 * <tr><td>{@code commands.keyspace}</td><td>KEYS, SCAN, FLUSHALL, FLUSHDB, MEMORY.</td><td>dispatch, resp, store,
 * config, acl, glob, log</td></tr>
 * <tr><td>{@code commands.acl}</td><td>ACL, over the {@code acl} model.</td><td>dispatch, resp, store, config, acl,
 * glob, log</td></tr>
 * <tr><td>{@code feed}</td><td>the raw TCP feed and its forward target.</td><td>session, dispatch, resp, store,
 * config, log</td></tr>
 * <tr><td>{@code info}</td><td>what the daemon says of itself: INFO, CONFIG GET's values, the start line, the
 * Prometheus endpoint (with the change log's figures).</td><td>session, dispatch, store, durability, config, log</td></tr>
 * <tr><td>{@code security}</td><td>users and TLS made at start-up, the ACL check the conductor asks, the
 * password's source.</td><td>dispatch, resp, config, acl, tls, log</td></tr>
 * <tr><td>{@code session}</td><td>one RESP connection ({@code RespConnection}: the Netty handler and what a command
 * may do with it), its verdicts ({@code VerdictRing}, {@code VerdictRouter}), every connection
 * ({@code ClientRegistry}).</td><td>dispatch, resp, store, config, acl, log</td></tr>
 * <tr><td>{@code dispatch}</td><td>the command table (one {@code Command} each: arity, flags, ACL categories, key
 * positions, handler), the {@code Conductor} that runs one command, the {@code Session} a handler is given, MULTI's
 * {@code Transaction}, a client's {@code ClientState}.</td><td>resp, store, acl, log</td></tr>
 * <tr><td>{@code config}</td><td>{@code ServerConfig}: everything {@code ddf serve} can be told, with its defaults
 * and checks.</td><td>store, tls</td></tr>
 * <tr><td>{@code redisbloom}</td><td>RedisBloom 2.4.23's BF.* and CF.* semantics over the scaling filters: their
 * arguments, bounds and error texts, answered as {@code Reply} values.</td><td>resp, store</td></tr>
 * <tr><td>{@code store}</td><td>the keyspace: {@code FilterStore} (fixed-size filters, and the scaling ones through
 * {@code ScalingRegistry}), creation off the event loop, the data directory, key names; it answers typed results and
 * {@code FilterStoreException}s (a {@code WrongTypeException} for a key of the other family), never RESP.</td>
 * <td>durability, log</td></tr>
 * <tr><td>{@code durability}</td><td>{@code serve --fsync}: the data directory's change log, its checkpoints and
 * what start-up replayed, and {@code GroupCommit}, which holds a reply that acknowledges a write until its record is
 * on the device.</td><td>resp, log</td></tr>
 * <tr><td>{@code resp}</td><td>the protocol: {@code RespDecoder} (requests, their limits), {@code ReplyWriter} and
 * {@code RespEncoding} (replies, RESP2 or RESP3), {@code Replies} and {@code RespError} (reply values and error
 * texts), {@code DurabilityBarrier} (what a reply waits for before it leaves). Nothing of the application.</td>
 * <td>nothing of ingest</td></tr>
 * <tr><td>{@code acl}, {@code tls}, {@code glob}, {@code log}, {@code migrate}</td><td>Redis's ACL model, the TLS
 * context, Redis's glob patterns, one-line and rate-limited log lines, {@code ddf migrate}.</td><td>{@code acl}:
 * glob; the others: nothing of ingest</td></tr>
 * </table>
 * A command family never uses the connection ({@code session}) or another family: what a handler may do with the
 * client is {@code dispatch.Session}, and what it needs of the daemon its constructor takes.
 *
 * <h2>A BF.ADD, from the socket to its reply bytes</h2>
 * On the default filter (one that grows; a missing key gets one), eleven classes of ingest, in this order:
 * <ol>
 * <li>{@code session/RespConnection.java}: {@code channelRead} hands the bytes the event loop read to the
 * decoder.</li>
 * <li>{@code resp/RespDecoder.java}: cuts every complete command of the input into its {@code ByteBuf[]} (small
 * arguments copied into reused buffers), enforcing the limits (argument and request sizes, the unauthenticated
 * limits, the input budget), and hands each to the connection's {@code command}, which asks the conductor.</li>
 * <li>{@code dispatch/Conductor.java}: finds the command by the bytes of its name in</li>
 * <li>{@code dispatch/CommandTable.java} (its {@code Command} says the arity and is counted in its
 * {@code CommandStats}), asks</li>
 * <li>{@code security/AclAuthorizer.java} whether the connection's user may run it on that key, checks the arity,
 * queues it under MULTI or runs its handler; an error the handler throws becomes its error reply there.</li>
 * <li>{@code commands/redisbloom/RedisBloomCommands.java}: the handler registered for BF.ADD routes the key to the
 * filters that grow or to ddf's fixed-size ones, as</li>
 * <li>{@code store/FilterStore.java} says the key is held ({@code kind}); for one that grows,</li>
 * <li>{@code commands/redisbloom/ScalingCommands.java} checks the item's length, hashes the item where the decoder
 * left it and adds it to the chain it leases from</li>
 * <li>{@code store/ScalingRegistry.java} (the chain itself is the engine's {@code BloomChain}), and places the
 * verdict at once in</li>
 * <li>{@code resp/ReplyWriter.java}, the connection's one writer of replies, in command order, which encodes it
 * with</li>
 * <li>{@code resp/RespEncoding.java}: {@code :1} (RESP3 {@code #t}) when the item was not seen before. When the read
 * is done ({@code RespConnection.channelReadComplete}) the writer hands the pass's replies, in one buffer, to its
 * gate ({@code resp/DurabilityBarrier.java}; under {@code --fsync always} the gate of
 * {@code durability/GroupCommit.java} holds them until the write is on the device), which writes and flushes
 * them.</li>
 * </ol>
 * A missing key is made off the event loop ({@code FilterStore.createScaling}, on its creation thread) while the
 * connection waits ({@code Session.retryAfter}), then the command runs again. On ddf's fixed-size filters
 * ({@code --past-capacity forget}, or a {@code KIND}) the handler is {@code FilterCommands}, which leases the filter
 * from the store and calls {@code Session.judge}: the connection's {@code session/VerdictRing.java} judges the item
 * inline (the default) or through the Disruptor pipeline ({@code --execution pipeline}) and the writer places the
 * verdict when its turn comes.
 */
package io.ddf.ingest;
