package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.redis.ArrayHeaderRedisMessage;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.BulkStringHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringRedisContent;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.LastBulkStringRedisContent;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayList;
import java.util.List;

/**
 * Netty's {@code RedisBulkStringAggregator} and {@code RedisArrayAggregator} in one, for the flat arrays of bulk
 * strings that commands are ({@link RespGuard}, before it, refuses nested arrays and enforces the limits): an
 * array header's children are collected into one {@link ArrayRedisMessage}, and a bulk string whose content came
 * in one piece keeps that piece (a slice of the read buffer) instead of being copied into a new composite buffer.
 * The profile of {@code BF.ADD} under {@code -P 16} showed the two aggregators' composite buffers, their component
 * arrays and their per-array state as about a third of the bytes allocated per command.
 *
 * <p>Messages outside an array (inline commands, a protocol error) pass on in order. Owned by one connection.
 */
final class RespAggregator extends ChannelInboundHandlerAdapter
{
    /** Children of the array being read, or null between arrays. */
    private List<RedisMessage> children;
    private int expected;
    /** The content of the bulk string being read: null before its first piece. */
    private ByteBuf bulk;
    private boolean inBulk;

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
            expected = (int)length; // at most RespGuard's maxArgs
            children = new ArrayList<>(expected);
            return;
        }
        if (msg instanceof BulkStringHeaderRedisMessage)
        {
            inBulk = true;
            return;
        }
        if (inBulk && msg instanceof BulkStringRedisContent)
        {
            final ByteBuf piece = ((BulkStringRedisContent)msg).content();
            if (bulk == null)
            {
                bulk = piece.retain();
            }
            else
            {
                final CompositeByteBuf composite = bulk instanceof CompositeByteBuf ? (CompositeByteBuf)bulk :
                    ctx.alloc().compositeBuffer(Integer.MAX_VALUE).addComponent(true, bulk);
                bulk = composite.addComponent(true, piece.retain());
            }
            final boolean last = msg instanceof LastBulkStringRedisContent;
            ReferenceCountUtil.release(msg);
            if (last)
            {
                final ByteBuf content = bulk;
                bulk = null;
                inBulk = false;
                child(ctx, new FullBulkStringRedisMessage(content));
            }
            return;
        }
        if (children != null && msg instanceof RedisMessage)
        {
            child(ctx, (RedisMessage)msg);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private void child(final ChannelHandlerContext ctx, final RedisMessage child)
    {
        if (children == null)
        {
            ctx.fireChannelRead(child);
            return;
        }
        children.add(child);
        if (children.size() == expected)
        {
            final List<RedisMessage> done = children;
            children = null;
            ctx.fireChannelRead(new ArrayRedisMessage(done));
        }
    }

    @Override
    public void handlerRemoved(final ChannelHandlerContext ctx)
    {
        release();
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        release();
        ctx.fireChannelInactive();
    }

    /** Releases a request abandoned mid-array. */
    private void release()
    {
        if (bulk != null)
        {
            bulk.release();
            bulk = null;
        }
        if (children != null)
        {
            children.forEach(ReferenceCountUtil::release);
            children = null;
        }
        inBulk = false;
    }
}
