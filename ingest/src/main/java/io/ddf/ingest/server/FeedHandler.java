package io.ddf.ingest.server;

import io.ddf.engine.Operation;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.ReferenceCountUtil;

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
    /** Records read while the feed's filter is being created, judged once it is. */
    private final ArrayDeque<ByteBuf> waiting = new ArrayDeque<>();
    private boolean creating;
    private boolean registered;
    private boolean closing;

    /**
     * @param server    the daemon.
     * @param forwarder where unseen records go, or null to answer verdicts.
     */
    FeedHandler(final DdfServer server, final Forwarder forwarder)
    {
        // the raw feed keeps the pipeline in every mode: its records are judged in arrival order off the event loop
        super(server.pipeline(), server.config().maxItemBytes, ServerConfig.Execution.PIPELINE);
        this.server = server;
        this.forwarder = forwarder;
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
        if (creating)
        {
            waiting.add(record);
            return;
        }
        judge(record);
    }

    /** Judges a record (and releases it unless it waits to be forwarded). */
    private void judge(final ByteBuf record)
    {
        boolean kept = false;
        try (FilterStore.Lease lease = server.store().acquire(server.config().feedFilter))
        {
            if (lease == null)
            {
                awaitCreation(record);
                kept = true;
                return;
            }
            reserve(1);
            if (forwarder != null)
            {
                records.add(record);
                kept = true;
            }
            publishItem(lease.filter(), Operation.STREAM, record);
        }
        catch (final RespError | FilterStoreException e)
        {
            server.log("ddf: feed: " + Session.message(e) + "; closing the connection");
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

    /**
     * The feed's filter is created on first use, off the event loop: reading pauses, and this record and any
     * already read are judged, in order, once the filter exists.
     */
    private void awaitCreation(final ByteBuf record)
    {
        creating = true;
        waiting.add(record);
        ctx.channel().config().setAutoRead(false);
        server.store().create(server.config().feedFilter, server::defaultFilter, false)
            .whenComplete((done, failure) -> ctx.executor().execute(() -> created(failure)));
    }

    private void created(final Throwable failure)
    {
        creating = false;
        if (failure != null && !closing)
        {
            server.log("ddf: feed: " + Session.message(failure) + "; closing the connection");
            closing = true;
            ctx.close();
        }
        ByteBuf record;
        while (!creating && (record = waiting.poll()) != null)
        {
            if (closing)
            {
                record.release();
            }
            else
            {
                judge(record);
            }
        }
        if (!creating && !closing)
        {
            ctx.channel().config().setAutoRead(ctx.channel().isWritable());
            onVerdicts();
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
            server.log("ddf: feed: record longer than " + server.config().maxItemBytes +
                " bytes; closing the connection");
        }
        else if (!(cause instanceof IOException))
        {
            server.log("ddf: feed: " + OneLine.of(cause) + "; closing the connection");
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
        while ((record = waiting.poll()) != null)
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
