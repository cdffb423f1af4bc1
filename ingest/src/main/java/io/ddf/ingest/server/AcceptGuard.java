package io.ddf.ingest.server;

import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.log.RateLimitedLog;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * On a listening channel (one instance each): when accepting fails (EMFILE/ENFILE when descriptors run out,
 * ENOBUFS), stops accepting for a while and then tries again, the pause doubling while failures go on (up to a
 * second), with one log line per interval. It also keeps the failure from reaching Netty's own logging: on its
 * first use that logging opens the time zone database, which fails when descriptors have run out, and the Error
 * killed the accepting thread — the daemon accepted nothing again until restart (issue 13, item 3).
 */
final class AcceptGuard extends ChannelInboundHandlerAdapter
{
    static final long FIRST_PAUSE_MILLIS = 10;
    static final long LONGEST_PAUSE_MILLIS = 1000;

    private final RateLimitedLog log;
    private long pauseMillis = FIRST_PAUSE_MILLIS;

    /** @param log where the failures are reported. */
    AcceptGuard(final RateLimitedLog log)
    {
        this.log = log;
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        // a connection accepted: the next failure starts again with a short pause
        pauseMillis = FIRST_PAUSE_MILLIS;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        log.log("ddf: cannot accept a connection (" + OneLine.of(cause) + "); pausing accepts for " +
            pauseMillis + " ms" + (cause instanceof IOException && String.valueOf(cause.getMessage())
            .contains("open files") ? " (raise the descriptor limit, ulimit -n, or lower --max-clients)" : ""));
        ctx.channel().config().setAutoRead(false);
        final long pause = pauseMillis;
        pauseMillis = Math.min(LONGEST_PAUSE_MILLIS, pauseMillis * 2);
        ctx.channel().eventLoop().schedule(() ->
        {
            if (ctx.channel().isOpen())
            {
                ctx.channel().config().setAutoRead(true);
                // with autoRead already set again by someone, read() still asks for the pending accepts
                ctx.channel().read();
            }
        }, pause, TimeUnit.MILLISECONDS);
    }
}
