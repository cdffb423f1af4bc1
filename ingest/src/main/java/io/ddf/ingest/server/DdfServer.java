package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.pipeline.FilterPipeline;
import io.ddf.engine.pipeline.FilterPipelineBuilder;
import io.ddf.engine.Operation;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@code ddf serve} daemon: a RESP2/RESP3 front and an optional raw feed, both on Netty, one Disruptor pipeline
 * behind them (RESP elements go through it, or are judged on the event loops with {@code --execution inline}), and
 * the filters of a data directory.
 */
public final class DdfServer implements AutoCloseable
{
    /** The Redis version INFO and HELLO report, so clients that parse it are content. */
    static final String REDIS_VERSION = "7.0.0";
    private static final int SHUTDOWN_SECONDS = 10;
    private static final long LOG_INTERVAL_SECONDS = 10;

    final AtomicInteger clients = new AtomicInteger();
    /** Connections that have not authenticated (when a password is set): at most half of --max-clients. */
    final StrangerSlots strangers;
    /** Per-connection events (closes, refusals): a flood of them gives a line per interval, not a line each. */
    final RateLimitedLog connectionLog;
    /** Failed AUTHs. */
    final RateLimitedLog authLog;
    final LongAdder connectionsReceived = new LongAdder();
    final LongAdder commandsProcessed = new LongAdder();
    /** Every open RESP connection, for CLIENT LIST. */
    final Clients clientList = new Clients();

    private final ServerConfig config;
    private final PrintStream log;
    private final long startNanos = System.nanoTime();
    private final FilterStore store;
    private final RedisBloomRoute route;
    private final VerdictRouter router;
    /** Judges every element of every connection: one Disruptor ring for the whole daemon. */
    private final FilterPipeline pipeline;
    private final CommandTable commands;
    private final InputBudget inputBudget;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final CountDownLatch closed = new CountDownLatch(1);
    private Channel respChannel;
    private Channel feedChannel;
    private Forwarder forwarder;
    private MetricsEndpoint metrics;
    private volatile boolean closing;

    private static io.ddf.ingest.redisbloom.ScalingRegistry openScaling(final ServerConfig config,
        final PrintStream log, final FilterStore store)
    {
        final io.ddf.ingest.redisbloom.ScalingRegistry registry =
            new io.ddf.ingest.redisbloom.ScalingRegistry(config.dataDir, KeyNames::fileName);
        try
        {
            registry.openAll(KeyNames::key, log);
            return registry;
        }
        catch (final java.io.IOException | RuntimeException ex)
        {
            registry.close();
            store.close();
            throw new UncheckedIOException(new java.io.IOException("cannot open the scaling filters of " +
                config.dataDir + ": " + ex.getMessage(), ex));
        }
    }

    private DdfServer(final ServerConfig config, final PrintStream log)
    {
        this.config = config;
        this.log = log;
        // Netty's and the JDK's loggers load the time zone database on first use; if that first use comes when
        // descriptors have run out, the Error it throws kills the accepting event loop and the daemon goes deaf
        java.util.TimeZone.getDefault();
        this.connectionLog = new RateLimitedLog(log::println, LOG_INTERVAL_SECONDS);
        this.authLog = new RateLimitedLog(log::println, LOG_INTERVAL_SECONDS);
        this.inputBudget = new InputBudget(config.maxInputBytes);
        this.strangers = new StrangerSlots(config.maxClients / 2);
        if (config.requirePass == null && config.feedPort >= 0 && !loopback(config.bind))
        {
            throw new IllegalArgumentException("the raw feed on " + config.bind + " would take records from " +
                "anyone who can reach it: set a password (--requirepass-file or DDF_REQUIREPASS) or bind to a " +
                "loopback address");
        }
        if (Integer.bitCount(config.ringSize) != 1)
        {
            throw new IllegalArgumentException("--ring-size must be a power of two, got " + config.ringSize);
        }
        ReserveOptions.defaultFilter(config.defaultCapacity, config.defaultErrorRate).parameters();
        this.router = new VerdictRouter(config.maxClients + 1024);
        this.store = FilterStore.open(config.dataDir, config.maxFilters, log);
        this.route = new RedisBloomRoute(store, openScaling(config, log, store), config);
        FilterPipeline p = null;
        try
        {
            final FilterPipelineBuilder builder = FilterPipeline.builder()
                .ringSize(config.ringSize)
                .maxElementBytes(config.maxItemBytes)
                .listener(router);
            if (config.waitStrategy != null)
            {
                builder.waitStrategy(config.waitStrategy);
            }
            p = builder.build();
        }
        finally
        {
            if (p == null)
            {
                store.close();
            }
        }
        this.pipeline = p;
        this.commands = CommandTable.of(this);
        final boolean epoll = Epoll.isAvailable();
        this.boss = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
        this.workers = epoll ? new EpollEventLoopGroup(config.ioThreads) : new NioEventLoopGroup(config.ioThreads);
    }

    /**
     * Opens the data directory, starts the pipeline and listens; logs one line.
     *
     * @param config the configuration.
     * @param log    where to log.
     * @return the running daemon.
     * @throws IllegalArgumentException for bad options.
     * @throws UncheckedIOException     when a port cannot be bound or the forward target reached.
     */
    public static DdfServer start(final ServerConfig config, final PrintStream log)
    {
        final DdfServer server = new DdfServer(config, log);
        try
        {
            server.bind();
        }
        catch (final RuntimeException e)
        {
            server.close();
            throw e;
        }
        return server;
    }

    private Class<? extends ServerChannel> serverChannelClass()
    {
        return boss instanceof EpollEventLoopGroup ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    private void bind()
    {
        final ReadBufferAllocator allocator = new ReadBufferAllocator();
        final ServerBootstrap resp = new ServerBootstrap()
            .group(boss, workers)
            .channel(serverChannelClass())
            .option(ChannelOption.SO_BACKLOG, 1024)
            .handler(new AcceptGuard(connectionLog))
            .childOption(ChannelOption.TCP_NODELAY, true)
            // socket reads in pooled direct buffers, released by the decoder even when a request is abandoned
            .childOption(ChannelOption.ALLOCATOR, allocator)
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                new WriteBufferWaterMark(config.clientOutputLimit / 2, config.clientOutputLimit))
            .childHandler(new ChannelInitializer<SocketChannel>()
            {
                @Override
                protected void initChannel(final SocketChannel ch)
                {
                    channels.add(ch);
                    final ChannelPipeline p = ch.pipeline();
                    p.addLast(new RespEncoder());
                    if (config.idleTimeoutSeconds > 0)
                    {
                        p.addLast(new IdleStateHandler(0, 0, config.idleTimeoutSeconds, TimeUnit.SECONDS));
                    }
                    final RespConnection connection = new RespConnection(DdfServer.this, commands);
                    p.addLast(new RespDecoder(config.maxInlineBytes, config.maxArgs, config.maxBulkBytes,
                        config.maxRequestBytes, inputBudget, connection::authenticated));
                    p.addLast(connection);
                }
            });
        respChannel = bindOrFail(resp, config.port, "RESP");
        if (config.feedPort >= 0)
        {
            if (config.forward != null)
            {
                forwarder = new Forwarder(config.feedFormat, this);
                final ChannelFuture connect = new Bootstrap()
                    .group(workers)
                    .channel(boss instanceof EpollEventLoopGroup ? EpollSocketChannel.class : NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                    .handler(forwarder)
                    .connect(config.forward)
                    .awaitUninterruptibly();
                if (!connect.isSuccess())
                {
                    throw new UncheckedIOException(new IOException("cannot connect to the forward target " +
                        config.forward + ": " + OneLine.of(connect.cause())));
                }
                forwarder.connected(connect.channel());
                channels.add(connect.channel());
            }
            final ServerBootstrap feed = new ServerBootstrap()
                .group(boss, workers)
                .channel(serverChannelClass())
                .handler(new AcceptGuard(connectionLog))
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(64 * 1024, 256 * 1024))
                .childHandler(new ChannelInitializer<SocketChannel>()
                {
                    @Override
                    protected void initChannel(final SocketChannel ch)
                    {
                        channels.add(ch);
                        final ChannelPipeline p = ch.pipeline();
                        if (config.feedFormat == ServerConfig.FeedFormat.FRAMES)
                        {
                            p.addLast(new LengthFieldBasedFrameDecoder(config.maxItemBytes + 4, 0, 4, 0, 4));
                        }
                        else
                        {
                            p.addLast(new LineBasedFrameDecoder(config.maxItemBytes, true, true));
                        }
                        if (config.requirePass != null)
                        {
                            p.addLast(new FeedAuth(config.requirePass, config.authTimeoutSeconds, connectionLog));
                        }
                        p.addLast(new FeedHandler(DdfServer.this, forwarder));
                    }
                });
            feedChannel = bindOrFail(feed, config.feedPort, "feed");
        }
        if (config.metricsPort >= 0)
        {
            metrics = MetricsEndpoint.start(this, commands.stats());
        }
        log.println(startLine());
    }

    private Channel bindOrFail(final ServerBootstrap bootstrap, final int port, final String what)
    {
        final ChannelFuture bound = bootstrap.bind(new InetSocketAddress(config.bind, port)).awaitUninterruptibly();
        if (!bound.isSuccess())
        {
            throw new UncheckedIOException(new IOException("cannot listen for " + what + " on " + config.bind + ":" +
                port + ": " + OneLine.of(bound.cause())));
        }
        return bound.channel();
    }

    private String startLine()
    {
        final StringBuilder line = new StringBuilder("ddf: serving RESP on ").append(config.bind).append(':')
            .append(port()).append(", data dir ").append(store.dir().toAbsolutePath()).append(", ")
            .append(route.size()).append(route.size() == 1 ? " filter" : " filters").append(" loaded");
        if (store.skipped() > 0)
        {
            line.append(" (").append(store.skipped()).append(" files skipped)");
        }
        if (feedChannel != null)
        {
            line.append(", raw feed (").append(config.feedFormat.name().toLowerCase(java.util.Locale.ROOT))
                .append(") on port ").append(feedPort()).append(" into filter '")
                .append(KeyNames.display(config.feedFilter)).append('\'');
            if (config.forward != null)
            {
                line.append(", unseen records forwarded to ").append(config.forward.getHostString()).append(':')
                    .append(config.forward.getPort());
            }
        }
        if (metrics != null)
        {
            line.append(", metrics on http://").append(config.metricsBind).append(':').append(metrics.port())
                .append("/metrics");
        }
        if (config.requirePass != null)
        {
            line.append(", password required");
        }
        return line.toString();
    }

    private static boolean loopback(final String address)
    {
        try
        {
            return java.net.InetAddress.getByName(address).isLoopbackAddress();
        }
        catch (final java.net.UnknownHostException e)
        {
            return false;
        }
    }

    /** @return the RESP port bound. */
    public int port()
    {
        return ((InetSocketAddress)respChannel.localAddress()).getPort();
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

    RedisBloomRoute route()
    {
        return route;
    }

    FilterStore store()
    {
        return store;
    }

    FilterPipeline pipeline()
    {
        return pipeline;
    }

    /** @return the bound on buffered input (tests). */
    InputBudget inputBudget()
    {
        return inputBudget;
    }

    VerdictRouter router()
    {
        return router;
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
        return ReserveOptions.defaultFilter(config.defaultCapacity, config.defaultErrorRate);
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

    /** @return what CONFIG GET reports. */
    Map<String, String> configValues()
    {
        final Map<String, String> values = new LinkedHashMap<>();
        values.put("save", "");
        values.put("appendonly", "no");
        values.put("port", Integer.toString(port()));
        values.put("bind", config.bind);
        values.put("maxclients", Integer.toString(config.maxClients));
        values.put("timeout", Integer.toString(config.idleTimeoutSeconds));
        values.put("databases", "1");
        values.put("proto-max-bulk-len", Integer.toString(config.maxBulkBytes));
        values.put("dir", store.dir().toAbsolutePath().toString());
        return values;
    }

    /** @return the INFO text. */
    String info()
    {
        long elements = 0;
        long duplicates = 0;
        int filters;
        final FilterStore.Lease all = store.leaseAll();
        try
        {
            final Map<String, DuplicateFilter> snapshot = store.snapshot();
            filters = snapshot.size();
            for (final DuplicateFilter filter : snapshot.values())
            {
                elements += filter.elements();
                duplicates += filter.duplicates();
            }
        }
        finally
        {
            all.close();
        }
        String version;
        try
        {
            version = "ddf " + BuildVersion.version();
        }
        catch (final IOException e)
        {
            version = "ddf";
        }
        final String nl = "\r\n";
        return "# Server" + nl +
            "redis_version:" + REDIS_VERSION + nl +
            "ddf_version:" + version.replace("ddf ", "") + nl +
            "redis_mode:standalone" + nl +
            "arch_bits:64" + nl +
            "process_id:" + ProcessHandle.current().pid() + nl +
            "tcp_port:" + port() + nl +
            "uptime_in_seconds:" + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos) + nl +
            nl + "# Clients" + nl +
            "connected_clients:" + clients.get() + nl +
            "maxclients:" + config.maxClients + nl +
            nl + "# Stats" + nl +
            "total_connections_received:" + connectionsReceived.sum() + nl +
            "total_commands_processed:" + commandsProcessed.sum() + nl +
            "filters:" + filters + nl +
            "elements:" + elements + nl +
            "duplicates:" + duplicates + nl +
            "unseen:" + (elements - duplicates) + nl +
            "scaling_filters:" + route.registry().size() + nl +
            "scaling_filter_bytes:" + route.registry().bytes() + nl +
            nl + "# Keyspace" + nl +
            (filters + route.registry().size() > 0 ? "db0:keys=" + (filters + route.registry().size()) +
                ",expires=0,avg_ttl=0" + nl : "") +
            InfoExtras.render(new InfoExtras(commands.stats(), store).sections());
    }

    /** @return the per-command counters. */
    CommandStats commandStats()
    {
        return commands.stats();
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
            if (respChannel != null)
            {
                respChannel.close().awaitUninterruptibly();
            }
            if (feedChannel != null)
            {
                feedChannel.close().awaitUninterruptibly();
            }
            for (final Channel channel : channels)
            {
                channel.config().setAutoRead(false);
            }
            store.stopPublishing();
            pipeline.close();
            // let each event loop write what the drained verdicts completed, then close the connections
            for (final Channel channel : channels)
            {
                final Connection connection = channel.pipeline().get(Connection.class);
                if (connection != null)
                {
                    channel.eventLoop().submit(connection::onVerdicts)
                        .awaitUninterruptibly(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
                }
            }
            final Channel downstream = forwarder != null ? forwarder.channel() : null;
            for (final Channel channel : channels)
            {
                if (channel != downstream)
                {
                    channel.close().awaitUninterruptibly(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
                }
            }
            if (downstream != null)
            {
                downstream.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER)
                    .awaitUninterruptibly(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
                downstream.close().awaitUninterruptibly(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
            }
            store.close();
        }
        finally
        {
            route.registry().close();
            if (metrics != null)
            {
                metrics.close();
            }
            boss.shutdownGracefully(0, SHUTDOWN_SECONDS, TimeUnit.SECONDS).awaitUninterruptibly();
            workers.shutdownGracefully(0, SHUTDOWN_SECONDS, TimeUnit.SECONDS).awaitUninterruptibly();
            closed.countDown();
        }
    }
}
