package io.ddf.ingest.server;

import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.feed.Forwarder;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.log.RateLimitedLog;
import io.ddf.ingest.security.TransportSecurity;
import io.ddf.ingest.session.VerdictRing;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The daemon's network: its event loops (on the transport {@link NativeTransport} chose), its listening sockets (the
 * RESP port and the raw feed's), the connection to a forward target, and every channel they made, so that they close
 * in order. Each accepted channel's pipeline starts with what {@link TransportSecurity} adds for its endpoint (TLS,
 * issue 23), then the idle timeout (RESP), then the connection's own handlers.
 */
final class Transports
{
    private static final int SHUTDOWN_SECONDS = 10;
    /**
     * A raw feed connection's socket reads: Netty's adaptive sizes (from 2 KiB, growing while reads fill the buffer)
     * up to 256 KiB rather than Netty's 64 KiB, so that a feed streaming at full speed takes its records in a quarter
     * of the reads (each a system call and a pass through the pipeline; the verdicts leave at the end of a wake-up's
     * reads). A connection that sends little reads little: the size adapts down again. At most {@link
     * #FEED_READS_PER_WAKE} reads a wake-up, so that one wake-up takes at most 1 MiB, as Netty's 16 reads of 64 KiB
     * did: the other connections of the event loop wait no longer for a feed.
     */
    private static final int FEED_READ_MIN = 64;
    private static final int FEED_READ_INITIAL = 2048;
    private static final int FEED_READ_MAX = 256 * 1024;
    private static final int FEED_READS_PER_WAKE = 4;
    /**
     * The RESP connections' allocator: direct buffers (what the transport reads the socket into, what a request
     * spanning several reads accumulates in, what a heap buffer is copied into before it is written) pooled; heap
     * buffers unpooled (no heap arena: Netty then makes each heap buffer unpooled). The allocation profile of
     * {@code BF.ADD -P 16} with every buffer unpooled (async-profiler, {@code bench/profile-daemon.sh OUT ddf.jar
     * alloc}) had all of the daemon's remaining 14-20 bytes per command in the unpooled direct buffer of each socket
     * read (the buffer, its {@code DirectByteBuffer}, its Cleaner); the pool recycles them. A request a client
     * abandons half-sent is released by the decoder when the connection closes (and the input budget closes a
     * connection holding too much before that). Netty's allocator configured, not a class of ours: nothing of ingest
     * runs per read (a subclass that picked pooled or not per call was one more class on every request's path).
     */
    private static final PooledByteBufAllocator READS = new PooledByteBufAllocator(false, 0,
        PooledByteBufAllocator.defaultNumDirectArena(), PooledByteBufAllocator.defaultPageSize(),
        PooledByteBufAllocator.defaultMaxOrder(), PooledByteBufAllocator.defaultSmallCacheSize(),
        PooledByteBufAllocator.defaultNormalCacheSize(), PooledByteBufAllocator.defaultUseCacheForAllThreads());

    private final ServerConfig config;
    private final RateLimitedLog connectionLog;
    private final TransportSecurity security;
    private final NativeTransport transport;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

    /**
     * @param config        the addresses, ports, threads and limits.
     * @param connectionLog where refused accepts are told.
     * @param security      what secures each endpoint.
     * @param transport     the event loops' transport ({@link NativeTransport#choose}).
     */
    Transports(final ServerConfig config, final RateLimitedLog connectionLog, final TransportSecurity security,
        final NativeTransport transport)
    {
        this.config = config;
        this.connectionLog = connectionLog;
        this.security = security;
        this.transport = transport;
        this.boss = new MultiThreadIoEventLoopGroup(1, transport.boss());
        this.workers = new MultiThreadIoEventLoopGroup(config.ioThreads, transport.workers());
    }

    /**
     * Listens for RESP clients.
     *
     * @param endpoint   {@link TransportSecurity.Endpoint#RESP} or {@link TransportSecurity.Endpoint#RESP_TLS}.
     * @param port       the port.
     * @param connection makes each connection's handler.
     * @return the listening channel.
     * @throws UncheckedIOException when the port cannot be bound.
     */
    Channel listenResp(final TransportSecurity.Endpoint endpoint, final int port,
        final Supplier<ChannelHandler> connection)
    {
        final ServerBootstrap resp = new ServerBootstrap()
            .group(boss, workers)
            .channel(transport.serverChannel())
            .option(ChannelOption.SO_BACKLOG, 1024)
            .handler(new AcceptGuard(connectionLog))
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.ALLOCATOR, READS)
            // a client that ends its input (`printf 'PING\r\nPING\r\n' | nc`) is answered, then closed
            // (RespConnection.inputEnded): without this the channel closed at the end of input, its replies unsent
            .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                new WriteBufferWaterMark(config.clientOutputLimit / 2, config.clientOutputLimit))
            .childHandler(initializer(endpoint, p ->
            {
                if (config.idleTimeoutSeconds > 0)
                {
                    p.addLast(new IdleStateHandler(0, 0, config.idleTimeoutSeconds, TimeUnit.SECONDS));
                }
                p.addLast(connection.get());
            }));
        return bind(resp, port, endpoint == TransportSecurity.Endpoint.RESP ? "RESP" : "RESP over TLS");
    }

    /**
     * Listens for raw feed clients.
     *
     * @param handlers adds each connection's handlers.
     * @return the listening channel.
     * @throws UncheckedIOException when the port cannot be bound.
     */
    Channel listenFeed(final Consumer<ChannelPipeline> handlers)
    {
        final ServerBootstrap feed = new ServerBootstrap()
            .group(boss, workers)
            .channel(transport.serverChannel())
            .handler(new AcceptGuard(connectionLog))
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(64 * 1024, 256 * 1024))
            .childOption(ChannelOption.RECVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator(FEED_READ_MIN,
                FEED_READ_INITIAL, FEED_READ_MAX).maxMessagesPerRead(FEED_READS_PER_WAKE))
            .childHandler(initializer(TransportSecurity.Endpoint.FEED, handlers));
        return bind(feed, config.feedPort, "feed");
    }

    /**
     * Connects to the forward target.
     *
     * @param forwarder the connection's handler.
     * @return the connected channel.
     * @throws UncheckedIOException when the target cannot be reached.
     */
    Channel connectForward(final Forwarder forwarder)
    {
        final ChannelFuture connect = new Bootstrap()
            .group(workers)
            .channel(transport.socketChannel())
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
        channels.add(connect.channel());
        return connect.channel();
    }

    private ChannelInitializer<SocketChannel> initializer(final TransportSecurity.Endpoint endpoint,
        final Consumer<ChannelPipeline> handlers)
    {
        return new ChannelInitializer<>()
        {
            @Override
            protected void initChannel(final SocketChannel ch)
            {
                channels.add(ch);
                security.secure(endpoint, ch);
                handlers.accept(ch.pipeline());
            }
        };
    }

    private Channel bind(final ServerBootstrap bootstrap, final int port, final String what)
    {
        final ChannelFuture bound = bootstrap.bind(new InetSocketAddress(config.bind, port)).awaitUninterruptibly();
        if (!bound.isSuccess())
        {
            throw new UncheckedIOException(new IOException("cannot listen for " + what + " on " + config.bind + ":" +
                port + ": " + OneLine.of(bound.cause())));
        }
        return bound.channel();
    }

    /** Stops reading on every connection (the daemon is closing). */
    void stopReading()
    {
        for (final Channel channel : channels)
        {
            channel.config().setAutoRead(false);
        }
    }

    /** Lets each connection write what the verdicts drained so far completed, on its event loop. */
    void writeWhatIsJudged()
    {
        for (final Channel channel : channels)
        {
            if (channel.pipeline().last() instanceof VerdictRing.Owner connection)
            {
                channel.eventLoop().submit(connection::onVerdicts)
                    .awaitUninterruptibly(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Closes every connection, the forward target's last, once what was sent to it is flushed.
     *
     * @param downstream the forward target's channel, or null.
     */
    void closeConnections(final Channel downstream)
    {
        for (final Channel channel : channels)
        {
            if (channel != downstream)
            {
                channel.close().awaitUninterruptibly(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
            }
        }
        if (downstream != null)
        {
            downstream.writeAndFlush(Unpooled.EMPTY_BUFFER).awaitUninterruptibly(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
            downstream.close().awaitUninterruptibly(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Stops the event loops. */
    void shutdown()
    {
        boss.shutdownGracefully(0, SHUTDOWN_SECONDS, TimeUnit.SECONDS).awaitUninterruptibly();
        workers.shutdownGracefully(0, SHUTDOWN_SECONDS, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
