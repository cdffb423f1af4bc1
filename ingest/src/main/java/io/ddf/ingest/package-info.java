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
 * hands it to its family ({@code BloomCommands}, {@code CuckooCommands}), which routes a key to the filters that grow
 * (over {@code redisbloom}'s semantics, through {@code Scaling}) or to ddf's fixed-size ones ({@code FixedSizeReserve},
 * {@code StreamingCuckoo}, {@code ScanDump}).</td>
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
 * <tr><td>{@code session}</td><td>one RESP connection ({@code RespConnection}: the Netty handler, and what a command
 * may ask of it that outlives the command, {@code Session.Connection}), its verdicts ({@code VerdictRing}, {@code
 * VerdictRouter}), every connection ({@code ClientRegistry}).</td><td>dispatch, resp, store, config, acl,
 * log</td></tr>
 * <tr><td>{@code dispatch}</td><td>the command table (one {@code Command} each: arity, flags, ACL categories, key
 * positions, handler, and its counters for INFO commandstats), the {@code Conductor} that runs one command, the {@code Session} a
 * handler is given (one client as Redis's {@code client} struct: replies, user, MULTI, what CLIENT LIST
 * shows).</td><td>resp, store, acl, log</td></tr>
 * <tr><td>{@code config}</td><td>{@code ServerConfig}: everything {@code ddf serve} can be told, with its defaults
 * and checks.</td><td>store, tls</td></tr>
 * <tr><td>{@code redisbloom}</td><td>RedisBloom 2.4.23's BF.* and CF.*: each of BF.RESERVE, BF.INSERT, CF.RESERVE
 * and CF.INSERT parsed once for every layout (its {@code ...Request}, ddf's BF.RESERVE options in
 * {@code ReserveOptions}), its error texts once ({@code Errors}), and the semantics over the scaling filters, answered
 * as the reply values of {@code resp}.</td><td>resp, store</td></tr>
 * <tr><td>{@code store}</td><td>the keyspace: {@code FilterStore} (fixed-size filters, and the scaling ones through
 * {@code ScalingRegistry}), creation off the event loop, the data directory, key names; it answers typed results and
 * {@code FilterStoreException}s (a {@code WrongTypeException} for a key of the other family), never RESP.</td>
 * <td>durability, log</td></tr>
 * <tr><td>{@code durability}</td><td>{@code serve --fsync}: the data directory's change log, its checkpoints and
 * what start-up replayed, and {@code GroupCommit}, which holds a reply that acknowledges a write until its record is
 * on the device.</td><td>resp, log</td></tr>
 * <tr><td>{@code resp}</td><td>the protocol: {@code RespDecoder} (requests, their limits; the connection pulls each
 * command from it), {@code ReplyWriter} and
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
 * On an existing filter of the default kind (one that grows), a daemon on its defaults runs the code of ten classes
 * for one BF.ADD: nine of ingest and the engine's chain, and the path goes one way (the connection pulls a command from
 * the decoder and hands it to the conductor, which runs the handler, which places the reply; nothing calls back up).
 * Counted by {@code bench/scripts/command-path.sh} (a debugger's method entries on the event loop; a nested or lambda
 * class counts with its file; the engine's classes ingest calls count, what they call in turn does not; result in
 * {@code bench/results/hotpath/command-path-2026-11-29.txt}). In order:
 * <ol>
 * <li>{@code session/RespConnection.java}: Netty reads the socket into a pooled direct buffer (its allocator,
 * configured in {@code server/Transports.java}) and calls {@code channelRead}, which hands the bytes to the decoder
 * and then, while the connection is open, pulls one command at a time from it ({@code runCommands}), telling it
 * whether the client has authenticated ({@code Session}).</li>
 * <li>{@code resp/RespDecoder.java}: {@code next} cuts the next complete command from the input, enforcing the limits
 * (argument and request sizes, the unauthenticated limits, the input budget), its arguments copied into reused
 * buffers; or answers that none is whole yet, or why the input is refused ({@code refusal}). The connection gives the
 * command and the client's {@code Session} to</li>
 * <li>{@code dispatch/Conductor.java}: it finds the command by the bytes of its name in</li>
 * <li>{@code dispatch/CommandTable.java}; the ACL was asked once whether the client's user may run everything (the
 * default user may) and is asked again only after an AUTH or a change of any user's rules (ACL SETUSER, DELUSER, LOAD),
 * so here the conductor only compares a count; it checks the arity in</li>
 * <li>{@code dispatch/Command.java}, notes the command in</li>
 * <li>{@code dispatch/Session.java} (CLIENT LIST's last command; not under MULTI, so it runs now), and runs the
 * handler; an error the handler throws becomes its error reply there.</li>
 * <li>{@code commands/redisbloom/BloomCommands.java}, BF.ADD's handler: checks the item's length and takes the key's
 * text ({@code Session}), hashes the item where the decoder left it and adds it to the chain it leases from</li>
 * <li>{@code store/ScalingRegistry.java}, the engine's</li>
 * <li>{@code BloomChain} ({@code engine/.../scaling/BloomChain.java}), and places the verdict at once in</li>
 * <li>{@code resp/ReplyWriter.java}, the connection's one writer of replies, in command order: {@code :1} (RESP3
 * {@code #t}) when the item was not seen before, four bytes into the pass's buffer. The conductor counts the run on
 * the {@code Command} (INFO commandstats). When the read is done ({@code RespConnection.channelReadComplete}) the
 * writer writes and flushes the pass's replies in one buffer.</li>
 * </ol>
 * Before issue 28's one-way cut it was fifteen, the decoder calling the connection back for each command: a
 * {@code ReadBufferAllocator} per read, {@code ArgumentBuffers} (now the decoder's own storage),
 * {@code AclAuthorizer} and {@code Identity} per command (now per user and change of rules), and
 * {@code CommandStats} (now the {@code Command}'s counters, as Redis's {@code redisCommand} holds them).
 * A user whose rules restrict it is checked on every command ({@code security/AclAuthorizer.java} over
 * {@code acl/Identity.java}). Under {@code --fsync always} the writer hands the replies to a gate
 * ({@code resp/DurabilityBarrier.java}, {@code durability/GroupCommit.java}) that holds them until the write is on
 * the device, then hands them back.
 * A key that holds no chain is looked up in {@code store/FilterStore.java} ({@code kind}). A missing key is made off
 * the event loop ({@code FilterStore.createScaling}, on its creation thread) while the
 * connection waits ({@code Session.retryAfter}), then the command runs again. On ddf's fixed-size filters
 * ({@code --past-capacity forget}, or a {@code KIND}) {@code BloomCommands} leases the filter
 * from the store and calls {@code Session.judge}: the connection's {@code session/VerdictRing.java} judges the item
 * inline (the default) or through the Disruptor pipeline ({@code --execution pipeline}) and the writer places the
 * verdict when its turn comes.
 */
package io.ddf.ingest;
