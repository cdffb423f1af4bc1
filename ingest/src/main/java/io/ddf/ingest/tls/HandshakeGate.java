package io.ddf.ingest.tls;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.FastThreadLocal;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Admits new TLS connections to their handshake at a bounded rate per event loop, so that a flood of handshakes
 * (each costs the server a key exchange and a signature on the event loop) cannot take the time the connected
 * clients' commands need: {@code bench/tls-flood.sh} measured a flood of unfinished handshakes cutting connected
 * clients to 0.4x without it. A connection over the rate waits, reading nothing (its bytes stay in the kernel),
 * and is admitted when a token comes; it is already counted as an unauthenticated client, so it is closed at
 * --auth-timeout or when strangers fill half of --max-clients, like any other. Each event loop has its own token
 * bucket (no shared state): {@code perSecond} tokens a second, at most {@code perSecond / 10} saved up.
 */
public final class HandshakeGate extends ChannelInboundHandlerAdapter
{
    /** Each event loop's bucket: handlers run on their channel's event loop, so no locking. */
    private static final FastThreadLocal<double[]> BUCKETS = new FastThreadLocal<>()
    {
        @Override
        protected double[] initialValue()
        {
            return new double[] {Double.NaN, 0};
        }
    };

    private final Supplier<SslHandler> handler;
    private final double perSecond;

    /**
     * @param handler   makes the connection's TLS handler once it is admitted.
     * @param perSecond handshakes admitted per second on each event loop.
     */
    public HandshakeGate(final Supplier<SslHandler> handler, final double perSecond)
    {
        this.handler = handler;
        this.perSecond = perSecond;
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        ctx.channel().config().setAutoRead(false);
        ctx.fireChannelActive();
        admit(ctx);
    }

    private void admit(final ChannelHandlerContext ctx)
    {
        if (!ctx.channel().isOpen() || ctx.isRemoved())
        {
            return;
        }
        final long wait = take(System.nanoTime());
        if (wait > 0)
        {
            ctx.executor().schedule(() -> admit(ctx), wait, TimeUnit.NANOSECONDS);
            return;
        }
        ctx.pipeline().replace(this, "tls", handler.get());
        ctx.channel().config().setAutoRead(true);
    }

    /** @return 0 when a token was taken, else how long until one comes, in nanoseconds. */
    private long take(final long now)
    {
        final double[] bucket = BUCKETS.get();
        final double burst = Math.max(1, perSecond / 10);
        if (Double.isNaN(bucket[0]))
        {
            bucket[0] = burst;
            bucket[1] = now;
        }
        bucket[0] = Math.min(burst, bucket[0] + (now - bucket[1]) * perSecond / 1e9);
        bucket[1] = now;
        if (bucket[0] >= 1)
        {
            bucket[0] -= 1;
            return 0;
        }
        return (long)Math.ceil((1 - bucket[0]) * 1e9 / perSecond);
    }
}
