package io.ddf.ingest.server;

import io.ddf.ingest.info.MetricsEndpoint;
import io.ddf.ingest.info.ServerInfo;
import io.netty.channel.Channel;

import java.net.InetSocketAddress;

/** Where the daemon listens, once it does: its listening channels and the metrics endpoint (INFO, the start line). */
final class BoundPorts implements ServerInfo.Ports
{
    Channel resp;
    Channel tls;
    Channel feed;
    MetricsEndpoint metrics;

    @Override
    public int port()
    {
        return port(resp);
    }

    @Override
    public int tlsPort()
    {
        return port(tls);
    }

    @Override
    public int feedPort()
    {
        return port(feed);
    }

    @Override
    public int metricsPort()
    {
        return metrics == null ? -1 : metrics.port();
    }

    /** Stops accepting: closes the listening channels (TLS first, then plain RESP, then the feed). */
    void closeListeners()
    {
        for (final Channel channel : new Channel[] {tls, resp, feed})
        {
            if (channel != null)
            {
                channel.close().awaitUninterruptibly();
            }
        }
    }

    private static int port(final Channel channel)
    {
        return channel == null ? -1 : ((InetSocketAddress)channel.localAddress()).getPort();
    }
}
