package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.Operation;
import io.ddf.engine.pipeline.FilterPipeline;
import io.ddf.engine.pipeline.FilterPipelineBuilder;
import io.netty.channel.Channel;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
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
    /** The Redis version INFO and HELLO report, so clients that parse it are content. */
    static final String REDIS_VERSION = ServerInfo.REDIS_VERSION;
    private static final long LOG_INTERVAL_SECONDS = 10;
    /**
     * The raw feed's hashes per ring slot: 64, as the pipeline's own measurement chose for long batches from one
     * producer (bench/README: packed 1.97-2.43x the direct loop at 1 Gbit with k = 64).
     */
    private static final int LONGS_PER_SLOT = 64;

    /** Per-connection events (closes, refusals): a flood of them gives a line per interval, not a line each. */
    final RateLimitedLog connectionLog;
    /** Failed AUTHs. */
    final RateLimitedLog authLog;

    private final ServerConfig config;
    private final PrintStream log;
    private final FilterStore store;
    private final VerdictRouter router;
    private final ClientRegistry clients;
    /** Judges the elements that go through it: one Disruptor ring for the whole daemon. */
    private final FilterPipeline pipeline;
    private final CommandTable commands;
    private final Conductor conductor;
    private final InputBudget inputBudget;
    private final ServerInfo info;
    /** serve --fsync: the filters' policy, what a reply waits for before it leaves, what start-up found. */
    private final Durability durability;
    /** What secures the endpoints (issue 23's TLS plugs in here). */
    /** Users (ACL) and TLS: what secures the endpoints and who may run what. */
    private final ServerSecurity security;
    private final Transports transports;
    private final CountDownLatch closed = new CountDownLatch(1);
    private Channel respChannel;
    private Channel tlsChannel;
    private Channel feedChannel;
    private Forwarder forwarder;
    private MetricsEndpoint metrics;
    private volatile boolean closing;

    private DdfServer(final ServerConfig config, final PrintStream log)
    {
        this.config = config.validate();
        this.log = log;
        // Netty's and the JDK's loggers load the time zone database on first use; if that first use comes when
        // descriptors have run out, the Error it throws kills the accepting event loop and the daemon goes deaf
        java.util.TimeZone.getDefault();
        this.connectionLog = new RateLimitedLog(log::println, LOG_INTERVAL_SECONDS);
        this.authLog = new RateLimitedLog(log::println, LOG_INTERVAL_SECONDS);
        this.inputBudget = new InputBudget(config.maxInputBytes);
        this.router = new VerdictRouter(config.maxClients + 1024);
        this.clients = new ClientRegistry(config.maxClients, router);
        this.durability = new Durability(config.fsync, config.fsyncWarnMillis, log);
        this.store = FilterStore.open(config.dataDir, config.filterLimit(), log, durability);
        this.pipeline = pipeline(config, router, store);
        this.commands = CommandTable.of(this);
        this.security = security(config, commands, log);
        this.conductor = new Conductor(commands, new AclAuthorizer(security.acl(), commands));
        this.info = new ServerInfo(this);
        this.transports = new Transports(config, connectionLog, security);
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
                store.close();
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
        if (config.port >= 0)
        {
            respChannel = transports.listenResp(TransportSecurity.Endpoint.RESP, config.port,
                () -> new RespConnection(this, conductor, durability.barrier()));
        }
        if (config.tlsPort >= 0)
        {
            tlsChannel = transports.listenResp(TransportSecurity.Endpoint.RESP_TLS, config.tlsPort,
                () -> new RespConnection(this, conductor, durability.barrier()));
        }
        if (config.feedPort >= 0)
        {
            if (config.forward != null)
            {
                forwarder = new Forwarder(config.feedFormat, this);
                forwarder.connected(transports.connectForward(forwarder));
            }
            feedChannel = transports.listenFeed(p -> p.addLast(new FeedHandler(this, forwarder)));
        }
        if (config.metricsPort >= 0)
        {
            metrics = MetricsEndpoint.start(this, commands, security.metrics());
        }
        log.println(info.startLine());
    }

    /** @return the TLS RESP port bound, or -1 when there is none. */
    public int tlsPort()
    {
        return tlsChannel == null ? -1 : ((InetSocketAddress)tlsChannel.localAddress()).getPort();
    }

    /** @return the users and TLS. */
    ServerSecurity security()
    {
        return security;
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
            store.close();
            throw e;
        }
    }

    /** @return the plain RESP port bound, or -1 when there is none ({@code --port 0}). */
    public int port()
    {
        return respChannel == null ? -1 : ((InetSocketAddress)respChannel.localAddress()).getPort();
    }

    /** @return the metrics port bound, or -1 when there is no endpoint. */
    public int metricsPort()
    {
        return metrics == null ? -1 : metrics.port();
    }

    MetricsEndpoint metrics()
    {
        return metrics;
    }

    /** @return the feed port bound, or -1. */
    public int feedPort()
    {
        return feedChannel == null ? -1 : ((InetSocketAddress)feedChannel.localAddress()).getPort();
    }

    ServerConfig config()
    {
        return config;
    }

    FilterStore store()
    {
        return store;
    }

    FilterPipeline pipeline()
    {
        return pipeline;
    }

    /** @return the bound on buffered input. */
    InputBudget inputBudget()
    {
        return inputBudget;
    }

    VerdictRouter router()
    {
        return router;
    }

    /** @return every open RESP connection. */
    ClientRegistry clients()
    {
        return clients;
    }

    /** @return what the daemon serves, each command with its counters. */
    CommandTable commands()
    {
        return commands;
    }

    /** @return what the daemon says of itself (INFO, CONFIG GET). */
    ServerInfo info()
    {
        return info;
    }

    /** @return what a reply waits for before it leaves (serve --fsync). */
    DurabilityBarrier durability()
    {
        return durability.barrier();
    }

    boolean isClosing()
    {
        return closing;
    }

    void log(final String line)
    {
        log.println(line);
    }

    /** @return a builder for a filter made on first use of a key. */
    FilterBuilder defaultFilter()
    {
        return ReserveOptions.defaultFilter(config.capacityOfMissingKeys(false), config.defaultErrorRate);
    }

    /**
     * Returns once every element published so far for the filter has been judged.
     *
     * @param filter the filter.
     */
    void drain(final DuplicateFilter filter)
    {
        if (config.execution == ServerConfig.Execution.INLINE && config.feedPort < 0)
        {
            // only the raw feed publishes into the pipeline then: RESP elements are judged before their command
            // returns, so there is nothing to wait for (and no event loop blocks on the pipeline's thread)
            return;
        }
        final VerdictRouter.Barrier barrier = router.barrier();
        pipeline.publish(filter, Operation.CONTAINS, new byte[1], 0, 1, barrier.tag());
        barrier.await();
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
            if (tlsChannel != null)
            {
                tlsChannel.close().awaitUninterruptibly();
            }
            if (respChannel != null)
            {
                respChannel.close().awaitUninterruptibly();
            }
            if (feedChannel != null)
            {
                feedChannel.close().awaitUninterruptibly();
            }
            transports.stopReading();
            store.stopPublishing();
            pipeline.close();
            // let each event loop write what the drained verdicts completed, then close the connections
            transports.writeWhatIsJudged();
            durability.awaitCommits();
            transports.closeConnections(forwarder != null ? forwarder.channel() : null);
            store.close();
        }
        finally
        {
            if (metrics != null)
            {
                metrics.close();
            }
            transports.shutdown();
            durability.close();
            closed.countDown();
        }
    }
}
