package io.ddf.ingest.feed;

import io.ddf.ingest.config.ServerConfig;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.GlobalEventExecutor;

/**
 * The raw feed's forward target: one TCP connection, opened at start, to which feed connections write their
 * unseen records. While it cannot take more (its write buffer is above the high water mark) every feed connection
 * stops reading; they resume when it drains.
 */
public final class Forwarder extends ChannelInboundHandlerAdapter
{
    private final ServerConfig.FeedFormat format;
    private final java.util.function.BooleanSupplier closing;
    private final java.util.function.Consumer<String> log;
    private final ChannelGroup feeds = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private volatile Channel downstream;

    /**
     * @param format framing of the records written.
     * @param closing whether the daemon is closing (then a lost target is not news).
     * @param log     the daemon's log.
     */
    public Forwarder(final ServerConfig.FeedFormat format, final java.util.function.BooleanSupplier closing,
        final java.util.function.Consumer<String> log)
    {
        this.format = format;
        this.closing = closing;
        this.log = log;
    }

    /** @param channel the connected downstream channel. */
    public void connected(final Channel channel)
    {
        this.downstream = channel;
    }

    /** @return the downstream channel, or null before it is connected. */
    public Channel channel()
    {
        return downstream;
    }

    /** @return whether the downstream connection is up. */
    boolean isActive()
    {
        final Channel channel = downstream;
        return channel != null && channel.isActive();
    }

    /** @param feed a feed connection to pause and resume with the downstream's writability. */
    void add(final Channel feed)
    {
        feeds.add(feed);
    }

    /**
     * Appends a record, framed, to a buffer.
     *
     * @param record the record.
     * @param out    the buffer.
     */
    void frame(final ByteBuf record, final ByteBuf out)
    {
        if (format == ServerConfig.FeedFormat.FRAMES)
        {
            out.writeInt(record.readableBytes());
            out.writeBytes(record, record.readerIndex(), record.readableBytes());
        }
        else
        {
            out.writeBytes(record, record.readerIndex(), record.readableBytes());
            out.writeByte('\n');
        }
    }

    /**
     * The records whose verdicts are available, those unseen framed for the target.
     *
     * @param records   the records waiting for their verdicts, in order (each taken is released).
     * @param verdicts  their verdicts.
     * @param available how many are available.
     * @param alloc     allocates the buffer.
     * @return the framed unseen records, or null for none.
     */
    ByteBuf unseen(final java.util.Queue<ByteBuf> records, final io.ddf.ingest.session.VerdictRing verdicts,
        final int available, final io.netty.buffer.ByteBufAllocator alloc)
    {
        ByteBuf out = null;
        for (int i = 0; i < available; i++)
        {
            final ByteBuf record = records.poll();
            try
            {
                if (!verdicts.next()) // unseen, or not judged (failed(): forwarded, a duplicate rather than a loss)
                {
                    if (out == null)
                    {
                        out = alloc.buffer();
                    }
                    frame(record, out);
                }
            }
            finally
            {
                ReferenceCountUtil.release(record);
            }
        }
        return out;
    }

    /**
     * Writes framed records downstream; pauses the feed connection when downstream is full.
     *
     * @param out  framed records.
     * @param feed the feed connection they came from.
     */
    void write(final ByteBuf out, final Channel feed)
    {
        final Channel channel = downstream;
        if (channel == null || !channel.isActive())
        {
            ReferenceCountUtil.release(out);
            feed.close();
            return;
        }
        channel.writeAndFlush(out);
        if (!channel.isWritable())
        {
            feed.config().setAutoRead(false);
            if (channel.isWritable())
            {
                feed.config().setAutoRead(true);
            }
        }
    }

    @Override
    public void channelWritabilityChanged(final ChannelHandlerContext ctx)
    {
        if (ctx.channel().isWritable())
        {
            for (final Channel feed : feeds)
            {
                feed.config().setAutoRead(true);
            }
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        if (!closing.getAsBoolean())
        {
            log.accept("ddf: forward target " + ctx.channel().remoteAddress() +
                " closed the connection; closing the feed connections");
        }
        feeds.close();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        ctx.close();
    }
}
