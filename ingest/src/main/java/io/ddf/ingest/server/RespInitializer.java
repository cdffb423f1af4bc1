package io.ddf.ingest.server;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;

import java.util.concurrent.TimeUnit;

/**
 * A RESP connection's handlers: behind TLS on the TLS port (the handshake first, timed out at --auth-timeout),
 * then the same decoder and connection as on the plain port.
 */
final class RespInitializer extends ChannelInitializer<SocketChannel>
{
    private final DdfServer server;
    private final Conductor conductor;
    private final InputBudget inputBudget;
    private final ChannelGroup channels;
    private final boolean tls;

    /**
     * @param server      the daemon.
     * @param conductor   runs the commands.
     * @param inputBudget bounds unfinished commands across connections.
     * @param channels    every open channel (closed on shutdown).
     * @param tls         whether the port speaks TLS.
     */
    RespInitializer(final DdfServer server, final Conductor conductor, final InputBudget inputBudget,
        final ChannelGroup channels, final boolean tls)
    {
        this.server = server;
        this.conductor = conductor;
        this.inputBudget = inputBudget;
        this.channels = channels;
        this.tls = tls;
    }

    @Override
    protected void initChannel(final SocketChannel ch)
    {
        channels.add(ch);
        final ChannelPipeline p = ch.pipeline();
        final ServerConfig config = server.config();
        if (tls)
        {
            p.addLast(server.security().tlsFront(ch));
        }
        if (config.idleTimeoutSeconds > 0)
        {
            p.addLast(new IdleStateHandler(0, 0, config.idleTimeoutSeconds, TimeUnit.SECONDS));
        }
        final RespConnection connection = new RespConnection(server, conductor);
        p.addLast(new RespDecoder(config.maxInlineBytes, config.maxArgs, config.maxBulkBytes,
            config.maxRequestBytes, inputBudget, connection::authenticated));
        p.addLast(connection);
    }
}
