package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.TimeUnit;

/**
 * In front of a raw feed connection when a password is set: the first record must be the password (it is not
 * judged and gets no verdict); anything else, or nothing within the auth timeout, closes the connection with a
 * rate-limited log line. Once the password has been given this handler steps out of the pipeline.
 */
final class FeedAuth extends ChannelInboundHandlerAdapter
{
    private final byte[] password;
    private final int timeoutSeconds;
    private final RateLimitedLog log;
    private boolean done;

    /**
     * @param password       the password.
     * @param timeoutSeconds close a connection that has not given it within this; 0 never.
     * @param log            where refusals are reported.
     */
    FeedAuth(final String password, final int timeoutSeconds, final RateLimitedLog log)
    {
        // compared as AUTH compares it: the password's UTF-8 bytes
        this.password = password.getBytes(StandardCharsets.UTF_8);
        this.timeoutSeconds = timeoutSeconds;
        this.log = log;
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        if (timeoutSeconds > 0)
        {
            ctx.executor().schedule(() ->
            {
                if (!done && ctx.channel().isOpen())
                {
                    refuse(ctx, "no password within --auth-timeout " + timeoutSeconds + " s");
                }
            }, timeoutSeconds, TimeUnit.SECONDS);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (done)
        {
            ReferenceCountUtil.release(msg);
            return;
        }
        try
        {
            final byte[] given = ByteBufUtil.getBytes((ByteBuf)msg);
            if (!MessageDigest.isEqual(password, given))
            {
                refuse(ctx, "wrong password in the first record");
                return;
            }
            done = true;
            ctx.pipeline().remove(this);
        }
        finally
        {
            ReferenceCountUtil.release(msg);
        }
    }

    private void refuse(final ChannelHandlerContext ctx, final String why)
    {
        done = true;
        log.log("ddf: feed: closing a connection from " + ctx.channel().remoteAddress() + ": " + why);
        ctx.channel().config().setAutoRead(false);
        ctx.close();
    }
}
