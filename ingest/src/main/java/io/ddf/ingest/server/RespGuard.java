package io.ddf.ingest.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.redis.ArrayHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringRedisContent;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.LastBulkStringRedisContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Sits between Netty's {@code RedisDecoder} and its aggregators and enforces the limits the aggregators do not:
 * a command is a flat array of at most {@code maxArgs} bulk strings, each at most {@code maxBulk} bytes, together
 * at most {@code maxRequest} bytes. Without it a header such as {@code *1000000000} would make the array aggregator
 * allocate a list of a billion slots, and nested array headers would pile up state without bound.
 *
 * <p>On a violation it passes a {@link ProtocolError} on instead (the command handler answers it and closes),
 * stops reading, and drops everything after.
 */
final class RespGuard extends ChannelInboundHandlerAdapter
{
    private final int maxArgs;
    private final int maxBulk;
    private final long maxRequest;
    private long remaining;
    private long requestBytes;
    private boolean failed;

    /**
     * @param maxArgs    most arguments of one command.
     * @param maxBulk    longest argument.
     * @param maxRequest most bytes of arguments of one command.
     */
    RespGuard(final int maxArgs, final int maxBulk, final long maxRequest)
    {
        this.maxArgs = maxArgs;
        this.maxBulk = maxBulk;
        this.maxRequest = maxRequest;
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (failed)
        {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof ArrayHeaderRedisMessage)
        {
            final long length = ((ArrayHeaderRedisMessage)msg).length();
            if (remaining > 0)
            {
                fail(ctx, msg, "Protocol error: expected '$', got '*'");
                return;
            }
            if (length > maxArgs)
            {
                fail(ctx, msg, "Protocol error: invalid multibulk length");
                return;
            }
            remaining = Math.max(0, length);
            requestBytes = 0;
        }
        else if (msg instanceof BulkStringHeaderRedisMessage)
        {
            final int length = ((BulkStringHeaderRedisMessage)msg).bulkStringLength();
            if (length > maxBulk || !count(length))
            {
                fail(ctx, msg, length > maxBulk ? "Protocol error: invalid bulk length" :
                    "Protocol error: command larger than " + maxRequest + " bytes");
                return;
            }
        }
        else if (msg instanceof FullBulkStringRedisMessage)
        {
            final FullBulkStringRedisMessage bulk = (FullBulkStringRedisMessage)msg;
            final int length = bulk.isNull() ? 0 : bulk.content().readableBytes();
            if (length > maxBulk || !count(length))
            {
                fail(ctx, msg, length > maxBulk ? "Protocol error: invalid bulk length" :
                    "Protocol error: command larger than " + maxRequest + " bytes");
                return;
            }
            childDone();
        }
        else if (msg instanceof LastBulkStringRedisContent)
        {
            childDone();
        }
        else if (!(msg instanceof BulkStringRedisContent))
        {
            childDone();
        }
        ctx.fireChannelRead(msg);
    }

    private boolean count(final int length)
    {
        requestBytes += length;
        return requestBytes <= maxRequest;
    }

    private void childDone()
    {
        if (remaining > 0)
        {
            remaining--;
        }
    }

    private void fail(final ChannelHandlerContext ctx, final Object msg, final String message)
    {
        failed = true;
        ReferenceCountUtil.release(msg);
        ctx.channel().config().setAutoRead(false);
        ctx.fireChannelRead(new ProtocolError(message));
    }

    /**
     * A request the daemon refuses to decode further: answered with an error, then the connection is closed.
     *
     * @param message the error, without the {@code ERR} code.
     */
    record ProtocolError(String message)
    {
    }
}
