package io.ddf.ingest.feed;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Operation;
import io.ddf.engine.scaling.BloomChain;
import io.ddf.engine.scaling.ScalingFilter;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.log.RateLimitedLog;
import io.ddf.ingest.resp.DurabilityBarrier;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.session.VerdictRing;
import io.ddf.ingest.session.VerdictRouter;
import io.ddf.ingest.store.FilterStore;
import io.ddf.ingest.store.FilterStoreException;
import io.ddf.ingest.store.ScalingRegistry;
import io.ddf.persistence.log.LogUnavailableException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One raw feed connection, read as the RESP path reads: every complete record of the input in one pass, framed here
 * (newline-delimited lines, {@code \r\n} or {@code \n} stripped; or a 4-byte big-endian length, then the bytes),
 * hashed where it was read, and judged as one batch of hashes ({@link VerdictRing#submitHashes}), as
 * {@code serve --feed-mode} says ({@link ServerConfig#feedInline()}): inline, streamed by this event loop itself, as
 * RESP's BF.MADD is, each verdict taken once its record is stored (and, through the filter, in the change log); or
 * through the pipeline, which packs the hashes {@code longsPerSlot} to a ring slot: no slice, no message and no ring
 * slot per record. Into a scaling Bloom chain (what BF.RESERVE makes under {@code --past-capacity scale}, NONSCALING
 * or not) the records are judged inline only, added as BF.ADD adds them ({@link ChainFeed}); a full NONSCALING chain
 * ends the feed after the verdicts before it ({@link #end}). The verdicts come back in order: without a forward
 * target one byte per record, {@code U} or {@code D}; with one, only the unseen records go to it, framed as they came.
 *
 * <p>With a password set, the first record must be the password (it is not judged and gets no verdict); anything
 * else, or nothing within {@code --auth-timeout}, closes the connection with a rate-limited log line. A record longer
 * than {@code --max-item-bytes} closes the connection. Backpressure instead of buffering: reading pauses while this
 * connection (verdicts) or the forward target (records) cannot take more output, and while the feed's filter is
 * being created (the records read meanwhile wait in the input), and resumes once it can.
 */
public final class FeedHandler extends ChannelInboundHandlerAdapter implements VerdictRing.Owner
{
    private static final byte UNSEEN = 'U';
    private static final byte DUPLICATE = 'D';
    private static final int NO_RECORD = RecordFraming.NONE;
    /**
     * Verdicts a feed connection may have outstanding: 16 batches of {@link VerdictRouter#MAX_BATCH}, so that the
     * verdicts leave in one write at the end of a wake-up's reads (or once 16 batches wait) rather than a write each
     * time a 4096-verdict ring fills. A write on loopback costs the event loop the receiver's side too
     * (the delivery and the wake-up of the client's reading thread): 579 writes for 2,000,000 records with the
     * 4096-verdict ring, two or three a read (feed-profile-2026-11-29.md in bench/results/daemon). 64 KiB a connection.
     */
    static final int RING = 16 * VerdictRouter.MAX_BATCH;

    private final Daemon server;
    private final Forwarder forwarder;
    private final VerdictRing verdicts;
    /** Inline, the batches into a scaling chain (a filter BF.RESERVE made, NONSCALING or not). */
    private final ChainFeed chainFeed;
    private final int maxRecord;
    /** The password's UTF-8 bytes, null once given (or when none is set). */
    private byte[] password;
    private ChannelHandlerContext ctx;
    /** Where verdicts (or forwarded records) go: at once, or after the sync of the writes (serve --fsync always). */
    private DurabilityBarrier.Gate gate;
    /** What was read and not yet framed, or null. */
    private ByteBuf input;
    /** The hashes of the records framed in this pass, not yet judged. */
    private final long[] hashes = new long[VerdictRouter.MAX_BATCH];
    /** With a forward target: the records published, waiting for their verdicts (slices of the input). */
    private final ArrayDeque<ByteBuf> records = new ArrayDeque<>();
    private final RecordFraming framing;
    private boolean creating;
    private boolean registered;
    private boolean closing;
    /** Judging has ended (a full NONSCALING chain, the log failed): the connection closes once the verdicts left. */
    private boolean ending;

    /**
     * @param server    what of the daemon a feed connection uses.
     * @param forwarder where unseen records go, or null to answer verdicts.
     */
    public FeedHandler(final Daemon server, final Forwarder forwarder)
    {
        final ServerConfig config = server.config();
        this.server = server;
        this.forwarder = forwarder;
        this.verdicts = new VerdictRing(server.pipeline(), config.maxItemBytes, config.feedInline(), this, RING);
        this.chainFeed = config.feedInline() ? new ChainFeed(verdicts) : null;
        this.framing = new RecordFraming(config.feedFormat == ServerConfig.FeedFormat.FRAMES, config.maxItemBytes);
        this.maxRecord = config.maxItemBytes;
        this.password = config.requirePass == null ? null : config.requirePass.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * What of the daemon a feed connection uses.
     *
     * @param config        the feed's settings.
     * @param store         the filters.
     * @param pipeline      where records are judged.
     * @param router        hands verdicts back to their connection.
     * @param durability    what a verdict that acknowledges a write waits for.
     * @param log           the daemon's log.
     * @param connectionLog the rate-limited log of closed connections.
     */
    public record Daemon(ServerConfig config, FilterStore store, io.ddf.engine.pipeline.FilterPipeline pipeline, VerdictRouter router,
        DurabilityBarrier durability, java.util.function.Consumer<String> log, RateLimitedLog connectionLog)
    {
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
        verdicts.attach(ctx.executor());
        this.gate = server.durability().gate(ctx.executor(), () -> verdicts.unjudged() == 0,
            new DurabilityBarrier.Output()
            {
                @Override
                public void write(final ByteBuf out, final boolean closeAfter)
                {
                    if (closeAfter)
                    {
                        sendThenClose(out);
                        return;
                    }
                    send(out);
                }

                @Override
                public void unsynced()
                {
                    server.log().accept("ddf: feed: a sync failed; closing the connection without the verdicts it held");
                    close();
                }
            });
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        final long tag = forwarder == null || forwarder.isActive() ? server.router().register(verdicts) : 0;
        if (tag == 0)
        {
            closing = true;
            ctx.close();
            return;
        }
        verdicts.tag(tag);
        registered = true;
        if (forwarder != null)
        {
            forwarder.add(ctx.channel());
        }
        final int timeout = server.config().authTimeoutSeconds;
        if (password != null && timeout > 0)
        {
            ctx.executor().schedule(() ->
            {
                if (password != null && !closing)
                {
                    refuse("no password within --auth-timeout " + timeout + " s");
                }
            }, timeout, TimeUnit.SECONDS);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        closing = true;
        if (registered)
        {
            server.router().unregister(verdicts.tag());
            registered = false;
        }
        drop();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(final ChannelHandlerContext ctx)
    {
        drop();
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (closing || ending || !(msg instanceof ByteBuf read))
        {
            ReferenceCountUtil.release(msg);
            return;
        }
        input = ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), input == null ? Unpooled.EMPTY_BUFFER :
            input, read);
        judge();
    }

    /** Frames, hashes and judges every complete record of the input (the feed's filter leased meanwhile). */
    private void judge()
    {
        if (creating || closing || ending || input == null)
        {
            return;
        }
        final String refused = server.store().durability().writeRefusal();
        if (refused != null)
        {
            // the feed has no error reply: its records are writes, refused while the change log cannot be written
            closeFor(refused);
            return;
        }
        try (FilterStore.Lease lease = server.store().acquire(server.config().feedFilter))
        {
            if (lease != null)
            {
                frame(lease.filter(), null);
            }
            else if (!server.store().scaling().has(server.config().feedFilter) || !intoChain())
            {
                awaitCreation();
                return;
            }
        }
        catch (final RespError | FilterStoreException e)
        {
            closeFor(Session.message(e));
            return;
        }
        if (input != null && !input.isReadable())
        {
            input.release();
            input = null;
        }
        else if (input != null && input.refCnt() == 1)
        {
            input.discardSomeReadBytes();
        }
    }

    /**
     * Judges into the feed filter's scaling chain (what BF.RESERVE makes, NONSCALING or not), under the registry's
     * read lock, so that no DEL closes it meanwhile; inline only.
     *
     * @return false when the key holds no filter any more (deleted meanwhile): the feed's filter is to be made.
     */
    private boolean intoChain()
    {
        final String name = server.config().feedFilter;
        final ScalingRegistry registry = server.store().scaling();
        try
        {
            final ScalingFilter filter = registry.acquire(name);
            if (filter == null)
            {
                return false;
            }
            final String refused = ChainFeed.refusal(name, filter, chainFeed != null);
            if (refused != null)
            {
                closeFor(refused);
            }
            else
            {
                frame(null, (BloomChain)filter);
            }
        }
        catch (final IllegalStateException cannotOpen)
        {
            closeFor(Session.message(cannotOpen));
        }
        finally
        {
            registry.release();
        }
        return true;
    }

    private void closeFor(final String reason)
    {
        server.log().accept("ddf: feed: " + reason + "; closing the connection");
        close();
    }

    /**
     * Frames, hashes and judges every complete record of the input into the feed's filter: a fixed-size filter
     * (leased) or a scaling chain (held by the registry), in batches of at most {@link VerdictRouter#MAX_BATCH}.
     */
    private void frame(final DuplicateFilter filter, final BloomChain chain)
    {
        int batched = 0;
        int length;
        while ((length = nextRecord()) != NO_RECORD)
        {
            if (password != null)
            {
                checkPassword(length);
                if (closing)
                {
                    return;
                }
                continue;
            }
            if (chain == null)
            {
                hashes[batched] = verdicts.hash(filter, input, framing.start(), length);
            }
            else
            {
                chainFeed.hash(chain, batched, input, framing.start(), length);
            }
            batched++;
            if (forwarder != null)
            {
                records.add(input.retainedSlice(framing.start(), length));
            }
            input.readerIndex(framing.end());
            if (batched == hashes.length)
            {
                if (!publish(filter, chain, batched))
                {
                    return;
                }
                batched = 0;
            }
        }
        publish(filter, chain, batched);
    }

    /**
     * Judges a batch: into the fixed-size filter (inline or through the pipeline), or inline into the chain.
     *
     * @return false when judging has ended ({@link #end}): a full NONSCALING chain, or the change log refused an
     *     element; the verdicts before it leave, then the connection closes.
     */
    private boolean publish(final DuplicateFilter filter, final BloomChain chain, final int count)
    {
        if (count == 0)
        {
            return true;
        }
        verdicts.reserve(count);
        try
        {
            if (chain == null)
            {
                gate.wrote(filter);
                verdicts.submitHashes(filter, Operation.STREAM, hashes, count);
                return true;
            }
            gate.wrote(chain);
            if (chainFeed.add(chain, count))
            {
                return true;
            }
            end("filter '" + server.config().feedFilter + "' is full (a NONSCALING filter: ERR non scaling " +
                "filter is full)");
        }
        catch (final LogUnavailableException e)
        {
            // judged inline, an element's record could not be appended: those before it keep their verdicts
            final String refusal = server.store().durability().writeRefusal();
            end(refusal != null ? refusal : OneLine.of(e));
        }
        return false;
    }

    /**
     * Judging ends (the feed has no error byte): reading stops, the verdicts judged leave (once synced under
     * {@code --fsync always}), then the connection closes; the reason goes to the log.
     */
    private void end(final String reason)
    {
        server.log().accept("ddf: feed: " + reason + "; closing the connection after the verdicts before it");
        ending = true;
        ctx.channel().config().setAutoRead(false);
        onVerdicts();
        gate.send(null, true);
    }

    /** The last verdicts (or forwarded records), then the connection closes ({@link #end}). */
    private void sendThenClose(final ByteBuf out)
    {
        closing = true;
        if (forwarder == null)
        {
            ctx.writeAndFlush(out == null ? Unpooled.EMPTY_BUFFER : out).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        if (out != null)
        {
            forwarder.write(out, ctx.channel());
        }
        ctx.close();
    }

    /** @return the length of the next complete record ({@link #framing}), or {@link #NO_RECORD}. */
    private int nextRecord()
    {
        final int length = closing || input == null ? NO_RECORD : framing.next(input);
        if (length == RecordFraming.TOO_LONG)
        {
            tooLong();
            return NO_RECORD;
        }
        return length;
    }

    private void tooLong()
    {
        closeFor("record longer than " + maxRecord + " bytes");
    }

    /** The first record when a password is set: the password, or the connection closes. */
    private void checkPassword(final int length)
    {
        final byte[] given = new byte[length];
        input.getBytes(framing.start(), given);
        input.readerIndex(framing.end());
        if (!MessageDigest.isEqual(password, given))
        {
            refuse("wrong password in the first record");
            return;
        }
        password = null;
    }

    private void refuse(final String why)
    {
        server.connectionLog().log("ddf: feed: closing a connection from " + ctx.channel().remoteAddress() + ": " + why);
        close();
    }

    private void close()
    {
        closing = true;
        ctx.channel().config().setAutoRead(false);
        ctx.close();
    }

    /**
     * The feed's filter is created on first use, off the event loop: reading pauses, and the records already read
     * wait in the input, to be judged in order once the filter exists.
     */
    private void awaitCreation()
    {
        creating = true;
        ctx.channel().config().setAutoRead(false);
        server.store().create(server.config().feedFilter, server.config()::defaultFilter, false)
            .whenComplete((done, failure) -> ctx.executor().execute(() -> created(failure)));
    }

    private void created(final Throwable failure)
    {
        creating = false;
        if (closing)
        {
            drop();
            return;
        }
        if (failure != null)
        {
            closeFor(Session.message(failure));
            return;
        }
        judge();
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
        if (forwarder == null && ctx.channel().isWritable() && !creating && !closing && !ending)
        {
            ctx.channel().config().setAutoRead(true);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (!(cause instanceof IOException))
        {
            server.log().accept("ddf: feed: " + OneLine.of(cause) + "; closing the connection");
        }
        closing = true;
        ctx.close();
    }

    private void drop()
    {
        if (gate != null)
        {
            gate.close();
        }
        ByteBuf record;
        while ((record = records.poll()) != null)
        {
            record.release();
        }
        if (input != null)
        {
            input.release();
            input = null;
        }
        verdicts.dropAvailable();
    }

    @Override
    public void onVerdicts()
    {
        if (closing)
        {
            drop();
            return;
        }
        final int available = verdicts.available();
        if (available == 0)
        {
            return;
        }
        if (forwarder == null)
        {
            final ByteBuf out = ctx.alloc().buffer(available);
            for (int i = 0; i < available; i++)
            {
                final boolean duplicate = verdicts.next();
                if (verdicts.failed() != null)
                {
                    // the pipeline could not judge this record: the verdicts before it leave, then the connection
                    // closes (the feed has no error byte), as when an inline judgement fails
                    gate.send(out, false);
                    refuse(verdicts.failed());
                    return;
                }
                out.writeByte(duplicate ? DUPLICATE : UNSEEN);
            }
            gate.send(out, false);
            if (gate.held() > server.config().clientOutputLimit)
            {
                ctx.channel().config().setAutoRead(false); // until the sync lets them go (send)
            }
            return;
        }
        final ByteBuf out = forwarder.unseen(records, verdicts, available, ctx.alloc());
        if (out != null)
        {
            gate.send(out, false);
        }
    }

    /** Verdicts, or records to forward, that may leave now. */
    private void send(final ByteBuf out)
    {
        if (out == null)
        {
            return;
        }
        if (forwarder != null)
        {
            forwarder.write(out, ctx.channel());
            return;
        }
        ctx.writeAndFlush(out);
        final boolean writable = ctx.channel().isWritable();
        if (!writable)
        {
            ctx.channel().config().setAutoRead(false);
        }
        else if (!ctx.channel().config().isAutoRead() && !creating && !closing && !ending && gate.held() == 0)
        {
            ctx.channel().config().setAutoRead(true); // paused while the gate held too much
        }
    }
}
