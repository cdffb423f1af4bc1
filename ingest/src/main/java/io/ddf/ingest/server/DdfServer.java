package io.ddf.ingest.server;

import io.ddf.engine.pipeline.FilterPipeline;
import io.ddf.engine.pipeline.FilterPipelineBuilder;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.dispatch.Conductor;
import io.ddf.ingest.durability.Durability;
import io.ddf.ingest.feed.FeedHandler;
import io.ddf.ingest.feed.Forwarder;
import io.ddf.ingest.info.MetricsEndpoint;
import io.ddf.ingest.info.ServerInfo;
import io.ddf.ingest.log.RateLimitedLog;
import io.ddf.ingest.resp.InputBudget;
import io.ddf.ingest.security.AclAuthorizer;
import io.ddf.ingest.security.ServerSecurity;
import io.ddf.ingest.security.TransportSecurity;
import io.ddf.ingest.session.ClientRegistry;
import io.ddf.ingest.session.Connections;
import io.ddf.ingest.session.RespConnection;
import io.ddf.ingest.session.VerdictRouter;
import io.ddf.ingest.store.FilterStore;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.concurrent.CountDownLatch;

/**
 * The {@code ddf serve} daemon, wired together: the filters of a data directory ({@link FilterStore}), one
 * Disruptor pipeline behind every connection (RESP elements go through it with {@code --execution pipeline}, the
 * raw feed's always), the commands ({@link CommandTable}) and who runs them ({@link Conductor}), the connections
 * ({@link ClientRegistry}, {@link VerdictRouter}), the network ({@link Transports}) and what it says of itself
 * ({@link ServerInfo}). A BF.ADD's way through these is told in the package's documentation.
 */
public final class DdfServer implements AutoCloseable
{
    private static final long LOG_INTERVAL_SECONDS = 10;
    /**
     * The raw feed's hashes per ring slot: 64, as the pipeline's own measurement chose for long batches from one
     * producer (bench/README: packed 1.97-2.43x the direct loop at 1 Gbit with k = 64).
     */
    private static final int LONGS_PER_SLOT = 64;

    /** Per-connection events (closes, refusals): a flood of them gives a line per interval, not a line each. */
    private final RateLimitedLog connectionLog;
    /** Failed AUTHs. */
    private final RateLimitedLog authLog;

    private final ServerConfig config;
    private final PrintStream log;
    private final FilterStore store;
    private final VerdictRouter router;
    private final ClientRegistry clients;
    /** Judges the elements that go through it: one Disruptor ring for the whole daemon. */
    private final FilterPipeline pipeline;
    /** Returns once the pipeline has judged every element published so far for a filter. */
    private final PipelineDrain drain;
    private final CommandTable commands;
    private final Conductor conductor;
    private final InputBudget inputBudget;
    private final ServerInfo info;
    /** serve --fsync: the filters' policy, what a reply waits for before it leaves, what start-up found. */
    private final Durability durability;
    /** Users (ACL) and TLS: what secures the endpoints and who may run what. */
    private final ServerSecurity security;
    private final Transports transports;
    private final BoundPorts ports = new BoundPorts();
    private final CountDownLatch closed = new CountDownLatch(1);
    private Forwarder forwarder;
    private volatile boolean closing;

    private DdfServer(final ServerConfig config, final PrintStream log)
    {
        this.config = config.validate();
        // an explicit transport this machine lacks is refused here, before anything is opened
        final NativeTransport transport = NativeTransport.choose(config);
        this.log = log;
        // Netty's and the JDK's loggers load the time zone database on first use; if that first use comes when
        // descriptors have run out, the Error it throws kills the accepting event loop and the daemon goes deaf
        java.util.TimeZone.getDefault();
        this.connectionLog = new RateLimitedLog(log::println, LOG_INTERVAL_SECONDS);
        this.authLog = new RateLimitedLog(log::println, LOG_INTERVAL_SECONDS);
        this.inputBudget = new InputBudget(config.maxInputBytes);
        this.router = new VerdictRouter(config.maxClients + 1024);
        this.clients = new ClientRegistry(config.maxClients, router);
        this.durability = new Durability(new Durability.Options(config.fsync, config.fsyncWarnMillis,
            config.checkpointSeconds, config.checkpointLogBytes, config.logSegmentBytes, config.liveDir), log);
        this.store = FilterStore.open(config.dataDir, config.filterLimit(), config.maxFilters == ServerConfig.DERIVED,
            log, durability, config.clock);
        durability.start(); // every filter found is open: the log's forces and the checkpoints begin
        this.pipeline = pipeline(config, router, store);
        this.drain = new PipelineDrain(config, router, pipeline);
        this.commands = new CommandTable();
        this.info = new ServerInfo(config, store, clients, commands, ports, transport.name());
        // the ACL's rules name the commands served, so the users are made once every command is registered; the
        // commands that read them (AUTH, HELLO, ACL) get them from this holder, set before the daemon listens
        final SecurityHolder users = new SecurityHolder();
        CommandFamilies.register(commands, config, store, drain, users, info, log::println);
        this.security = security(config, commands, log);
        users.set(security);
        this.conductor = new Conductor(commands, new AclAuthorizer(security.acl(), commands));
        security.acl().onChange(conductor::rulesChanged);
        durability.onWriteRefusal(conductor::writesRefused);
        conductor.refusalText(durability::refusalOf);
        router.refusalText(durability::refusalOf);
        this.transports = new Transports(config, connectionLog, security, transport);
    }

    private static FilterPipeline pipeline(final ServerConfig config, final VerdictRouter router,
        final FilterStore store)
    {
        boolean built = false;
        try
        {
            // the raw feed publishes batches of hashes, packed 64 to a slot (bench/README, issue 20)
            final FilterPipelineBuilder builder = FilterPipeline.builder()
                .ringSize(config.ringSize)
                .maxElementBytes(config.maxItemBytes)
                .longsPerSlot(LONGS_PER_SLOT)
                .listener(router);
            if (config.waitStrategy != null)
            {
                builder.waitStrategy(config.waitStrategy);
            }
            final FilterPipeline pipeline = builder.build();
            built = true;
            return pipeline;
        }
        finally
        {
            if (!built)
            {
                store.durability().stopLogging();
                store.close();
                store.durability().close();
            }
        }
    }

    /**
     * Checks the configuration, opens the data directory, starts the pipeline and listens; logs one line.
     *
     * @param config the configuration.
     * @param log    where to log.
     * @return the running daemon.
     * @throws IllegalArgumentException for bad options ({@link ServerConfig#validate}).
     * @throws UncheckedIOException     when a port cannot be bound or the forward target reached.
     */
    public static DdfServer start(final ServerConfig config, final PrintStream log)
    {
        final DdfServer server = new DdfServer(config, log);
        try
        {
            server.listen();
        }
        catch (final RuntimeException e)
        {
            server.close();
            throw e;
        }
        return server;
    }

    private void listen()
    {
        final Connections resp = new Connections(config, conductor, durability.barrier(), clients,
            security.acl(), inputBudget, pipeline, connectionLog, authLog);
        if (config.port >= 0)
        {
            ports.resp = transports.listenResp(TransportSecurity.Endpoint.RESP, config.port,
                () -> new RespConnection(resp));
        }
        if (config.tlsPort >= 0)
        {
            ports.tls = transports.listenResp(TransportSecurity.Endpoint.RESP_TLS, config.tlsPort,
                () -> new RespConnection(resp));
        }
        if (config.feedPort >= 0)
        {
            if (config.forward != null)
            {
                forwarder = new Forwarder(config.feedFormat, this::isClosing, log::println);
                forwarder.connected(transports.connectForward(forwarder));
            }
            final FeedHandler.Daemon feed = new FeedHandler.Daemon(config, store, pipeline, router,
                durability.barrier(), log::println, connectionLog);
            ports.feed = transports.listenFeed(p -> p.addLast(new FeedHandler(feed, forwarder)));
        }
        if (config.metricsPort >= 0)
        {
            ports.metrics = MetricsEndpoint.start(config, store, clients, commands, security.metrics());
        }
        log.println(info.startLine(security.describe()));
    }

    /** @return the TLS RESP port bound, or -1 when there is none. */
    public int tlsPort()
    {
        return ports.tlsPort();
    }

    /** The users and TLS; when the ACL file or a certificate is bad, the pipeline and the store are closed. */
    private ServerSecurity security(final ServerConfig config, final CommandTable commands, final PrintStream log)
    {
        try
        {
            return new ServerSecurity(config, commands, log::println);
        }
        catch (final RuntimeException e)
        {
            pipeline.close();
            durability.stopLogging();
            store.close();
            durability.close(); // the log too: a daemon started again in this process opens it
            throw e;
        }
    }

    /** @return the plain RESP port bound, or -1 when there is none ({@code --port 0}). */
    public int port()
    {
        return ports.port();
    }

    /** @return the metrics port bound, or -1 when there is no endpoint. */
    public int metricsPort()
    {
        return ports.metricsPort();
    }

    /** @return the feed port bound, or -1. */
    public int feedPort()
    {
        return ports.feedPort();
    }

    /** @return the metrics endpoint, or null (tests read its registry). */
    MetricsEndpoint metrics()
    {
        return ports.metrics;
    }

    /** @return the filters (tests look at them beside the daemon). */
    FilterStore store()
    {
        return store;
    }

    /** @return the bound on buffered input (tests read what it holds). */
    InputBudget inputBudget()
    {
        return inputBudget;
    }

    private boolean isClosing()
    {
        return closing;
    }

    /** Waits until the daemon has been closed. */
    public void awaitClosed()
    {
        try
        {
            closed.await();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops accepting, stops reading, drains the pipeline (replies to what was read), flushes and closes every
     * filter, and stops the threads. Idempotent.
     */
    @Override
    public synchronized void close()
    {
        if (closing)
        {
            awaitClosed();
            return;
        }
        closing = true;
        try
        {
            ports.closeListeners();
            transports.stopReading();
            store.stopPublishing();
            pipeline.close();
            // let each event loop write what the drained verdicts completed, then close the connections
            transports.writeWhatIsJudged();
            durability.awaitCommits();
            transports.closeConnections(forwarder != null ? forwarder.channel() : null);
            durability.stopLogging(); // no checkpoint runs while the filters are sealed and closed
            store.close();
        }
        finally
        {
            if (ports.metrics != null)
            {
                ports.metrics.close();
            }
            transports.shutdown();
            durability.close();
            closed.countDown();
        }
    }
}
