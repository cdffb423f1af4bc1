package io.ddf.ingest.server;

import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.log.OneLine;
import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The transport {@code serve --io-transport} resolved to: the I/O handler of Netty 4.2's event loops
 * ({@code MultiThreadIoEventLoopGroup}) and the channel classes that run on it. {@code auto} is io_uring where the
 * kernel has it, else epoll, else NIO; an explicit choice this machine lacks is refused, with Netty's reason, before
 * the daemon opens anything. Only epoll's wait polls before it blocks ({@code --io-spin-micros}, {@link
 * SpinThenBlock}): with a spell of polling, {@code auto} is epoll and an explicit io_uring is refused.
 *
 * @param name          the transport's name, as {@code --io-transport} and INFO's {@code multiplexing_api} say it.
 * @param boss          the accepting loop's handler.
 * @param workers       the connections' loops' handler.
 * @param serverChannel the listening sockets' class.
 * @param socketChannel the outgoing connection's class (the forward target's).
 */
record NativeTransport(String name, IoHandlerFactory boss, IoHandlerFactory workers,
    Class<? extends ServerChannel> serverChannel, Class<? extends SocketChannel> socketChannel)
{
    /**
     * @param config {@code --io-transport} and {@code --io-spin-micros}.
     * @return the transport to run.
     * @throws IllegalArgumentException when the transport named is not available here, or io_uring is asked to spin.
     */
    static NativeTransport choose(final ServerConfig config)
    {
        return switch (config.ioTransport)
        {
            case AUTO -> auto(config);
            case EPOLL ->
            {
                refuseUnavailable(Epoll.isAvailable(), ServerConfig.IoTransport.EPOLL, Epoll.unavailabilityCause());
                yield epoll(config);
            }
            case IO_URING ->
            {
                refuseUnavailable(IoUring.isAvailable(), ServerConfig.IoTransport.IO_URING,
                    IoUring.unavailabilityCause());
                if (config.ioSpinMicros > 0)
                {
                    throw new IllegalArgumentException("--io-spin-micros is epoll's wait: --io-transport io_uring " +
                        "cannot spin (set --io-spin-micros 0 or --io-transport epoll)");
                }
                yield ioUring();
            }
            case NIO -> nio();
        };
    }

    /**
     * io_uring where this kernel has it (and lets this process use it: a container's seccomp policy may not), as
     * measured on this 2-core PVM guest (bench/README.md, "io_uring"): the event loop's CPU per pipelined BF.ADD
     * 1.26 against 1.35 µs, its time in the kernel from 40 % to 24 %, p50 lower in every comparison; req/s ahead in
     * 25 of 37 alternated rounds (median ratio 1.13), not in every run. A spell of polling ({@code --io-spin-micros})
     * is epoll's wait, so it keeps epoll; then NIO where there is neither.
     */
    private static NativeTransport auto(final ServerConfig config)
    {
        if (config.ioSpinMicros == 0 && IoUring.isAvailable())
        {
            return ioUring();
        }
        return Epoll.isAvailable() ? epoll(config) : nio();
    }

    private static NativeTransport ioUring()
    {
        return new NativeTransport("io_uring", IoUringIoHandler.newFactory(), IoUringIoHandler.newFactory(),
            IoUringServerSocketChannel.class, IoUringSocketChannel.class);
    }

    private static void refuseUnavailable(final boolean available, final ServerConfig.IoTransport transport,
        final Throwable cause)
    {
        if (!available)
        {
            throw new IllegalArgumentException("--io-transport " + transport.name().toLowerCase(Locale.ROOT) +
                " is not available on this machine: " + OneLine.of(cause) + " (auto picks what is)");
        }
    }

    private static NativeTransport epoll(final ServerConfig config)
    {
        final SelectStrategyFactory wait = config.ioSpinMicros == 0 ? DefaultSelectStrategyFactory.INSTANCE
            : SpinThenBlock.factory(TimeUnit.MICROSECONDS.toNanos(config.ioSpinMicros));
        // 0 events per wait: Netty's default, a batch that grows with the sockets ready
        return new NativeTransport("epoll", EpollIoHandler.newFactory(), EpollIoHandler.newFactory(0, wait),
            EpollServerSocketChannel.class, EpollSocketChannel.class);
    }

    private static NativeTransport nio()
    {
        return new NativeTransport("nio", NioIoHandler.newFactory(), NioIoHandler.newFactory(),
            NioServerSocketChannel.class, NioSocketChannel.class);
    }
}
