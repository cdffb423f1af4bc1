package io.ddf.ingest.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.redis.ArrayHeaderRedisMessage;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayList;
import java.util.List;

/**
 * Gathers a command's arguments (the flat arrays {@link RespGuard} lets through) into one
 * {@link ArrayRedisMessage}. It replaces Netty's {@code RedisArrayAggregator}, which keeps the arguments of an
 * unfinished array when the connection closes and never releases them: a client that disconnects mid-command
 * leaked its buffers (direct memory, with no cleaner behind it) — the {@code LEAK: ByteBuf.release() was not
 * called} of issue 13. Here an unfinished command is released when the connection goes.
 */
final class ArrayAssembler extends ChannelInboundHandlerAdapter
{
    private List<RedisMessage> children;
    private int expected;

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (msg instanceof ArrayHeaderRedisMessage)
        {
            final long length = ((ArrayHeaderRedisMessage)msg).length();
            if (length <= 0)
            {
                ctx.fireChannelRead(length == 0 ? ArrayRedisMessage.EMPTY_INSTANCE : ArrayRedisMessage.NULL_INSTANCE);
                return;
            }
            releaseUnfinished();
            expected = (int)length;
            // RespGuard bounds length; grow as arguments come rather than trusting the header with memory
            children = new ArrayList<>((int)Math.min(length, 64));
            return;
        }
        if (children == null || !(msg instanceof RedisMessage))
        {
            ctx.fireChannelRead(msg);
            return;
        }
        children.add((RedisMessage)msg);
        if (children.size() == expected)
        {
            final List<RedisMessage> done = children;
            children = null;
            ctx.fireChannelRead(new ArrayRedisMessage(done));
        }
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        releaseUnfinished();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(final ChannelHandlerContext ctx)
    {
        releaseUnfinished();
    }

    private void releaseUnfinished()
    {
        if (children != null)
        {
            for (final RedisMessage child : children)
            {
                ReferenceCountUtil.release(child);
            }
            children = null;
        }
    }
}
