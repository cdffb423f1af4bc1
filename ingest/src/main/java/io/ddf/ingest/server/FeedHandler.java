package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.pipeline.Operation;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.ReferenceCountUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.util.ArrayDeque;

/**
 * One raw feed connection: every record (a frame from Netty's line or length-field decoder) is judged against
 * the feed's filter through the pipeline. Without a forward target, one byte per record goes back in order,
 * {@code U} or {@code D}; with one, only the unseen records go to it, framed as they came.
 *
 * <p>Backpressure instead of buffering: reading pauses while this connection (verdicts) or the forward target
 * (records) cannot take more output, and resumes once it can.
 */
final class FeedHandler extends Connection
{
    private static final byte UNSEEN = 'U';
    private static final byte DUPLICATE = 'D';

    private final DdfServer server;
    private final Forwarder forwarder;
    private final ArrayDeque<ByteBuf> records = new ArrayDeque<>();
    private final UnsafeBuffer direct = new UnsafeBuffer(0, 0);
    private final byte[] scratch;
    private boolean registered;
    private boolean closing;

    /**
     * @param server    the daemon.
     * @param forwarder where unseen records go, or null to answer verdicts.
     */
    FeedHandler(final DdfServer server, final Forwarder forwarder)
    {
        this.server = server;
        this.forwarder = forwarder;
        this.scratch = new byte[server.judge().maxElementBytes()];
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        final long tag = forwarder == null || forwarder.isActive() ? server.router().register(this) : -1;
        if (tag < 0)
        {
            closing = true;
            ctx.close();
            return;
        }
        tag(tag);
        registered = true;
        if (forwarder != null)
        {
            forwarder.add(ctx.channel());
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        closing = true;
        if (registered)
        {
            server.router().unregister(tag());
            registered = false;
        }
        drop();
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf record = (ByteBuf)msg;
        if (closing || !ctx.channel().isActive())
        {
            record.release();
            return;
        }
        boolean kept = false;
        try
        {
            final DuplicateFilter filter = server.store().acquire(server.config().feedFilter, server::defaultFilter);
            try
            {
                reserve(1);
                if (forwarder != null)
                {
                    records.add(record);
                    kept = true;
                }
                publish(filter, record);
                published();
            }
            finally
            {
                server.store().readLock().unlock();
            }
        }
        catch (final RespError e)
        {
            server.log("ddf: feed: " + e.getMessage() + "; closing the connection");
            closing = true;
            ctx.close();
        }
        finally
        {
            if (!kept)
            {
                record.release();
            }
        }
    }

    private void publish(final DuplicateFilter filter, final ByteBuf item)
    {
        final int length = item.readableBytes();
        if (item.hasArray())
        {
            server.judge().publish(filter, Operation.STREAM, item.array(), item.arrayOffset() + item.readerIndex(),
                length, tag());
        }
        else if (item.hasMemoryAddress())
        {
            direct.wrap(item.memoryAddress() + item.readerIndex(), length);
            server.judge().publish(filter, Operation.STREAM, direct, 0, length, tag());
        }
        else
        {
            item.getBytes(item.readerIndex(), scratch, 0, length);
            server.judge().publish(filter, Operation.STREAM, scratch, 0, length, tag());
        }
    }

    @Override
    public void channelReadComplete(final ChannelHandlerContext ctx)
    {
        onVerdicts();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(final ChannelHandlerContext ctx)
    {
        if (forwarder == null && ctx.channel().isWritable())
        {
            ctx.channel().config().setAutoRead(true);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (cause instanceof TooLongFrameException || cause.getCause() instanceof TooLongFrameException)
        {
            server.log("ddf: feed: record longer than " + server.judge().maxElementBytes() +
                " bytes; closing the connection");
        }
        else if (!(cause instanceof IOException))
        {
            server.log("ddf: feed: " + FilterStore.oneLine(cause) + "; closing the connection");
        }
        closing = true;
        ctx.close();
    }

    private void drop()
    {
        ByteBuf record;
        while ((record = records.poll()) != null)
        {
            record.release();
        }
        while (available() > 0)
        {
            next();
        }
    }

    @Override
    void onVerdicts()
    {
        if (closing)
        {
            drop();
            return;
        }
        final int available = available();
        if (available == 0)
        {
            return;
        }
        if (forwarder == null)
        {
            final ByteBuf out = ctx.alloc().buffer(available);
            for (int i = 0; i < available; i++)
            {
                out.writeByte(next() ? DUPLICATE : UNSEEN);
            }
            ctx.writeAndFlush(out);
            if (!ctx.channel().isWritable())
            {
                ctx.channel().config().setAutoRead(false);
            }
            return;
        }
        ByteBuf out = null;
        for (int i = 0; i < available; i++)
        {
            final ByteBuf record = records.poll();
            try
            {
                if (!next())
                {
                    if (out == null)
                    {
                        out = ctx.alloc().buffer();
                    }
                    forwarder.frame(record, out);
                }
            }
            finally
            {
                ReferenceCountUtil.release(record);
            }
        }
        if (out != null)
        {
            forwarder.write(out, ctx.channel());
        }
    }
}
