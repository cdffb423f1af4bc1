package io.ddf.ingest.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.redis.ArrayHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringRedisContent;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.LastBulkStringRedisContent;
import io.netty.util.ReferenceCountUtil;

import java.util.function.BooleanSupplier;

/**
 * Sits between Netty's {@code RedisDecoder} and its aggregators and enforces the limits the aggregators do not:
 * a command is a flat array of at most {@code maxArgs} bulk strings, each at most {@code maxBulk} bytes, together
 * at most {@code maxRequest} bytes. Without it a header such as {@code *1000000000} would make the array aggregator
 * allocate a list of a billion slots, and nested array headers would pile up state without bound.
 *
 * <p>Before AUTH (when a password is set) the limits are Redis's own for unauthenticated clients: at most
 * {@value #UNAUTHENTICATED_ARGS} arguments of at most {@value #UNAUTHENTICATED_BULK} bytes, so a stranger cannot
 * make the daemon buffer more than a few hundred KiB. Every argument's declared size is reserved in the daemon's
 * {@link InputBudget} before its bytes arrive, and released once the command has been handed on.
 *
 * <p>On a violation it passes a {@link ProtocolError} on instead (the command handler answers it, naming the limit,
 * and closes), stops reading, and drops everything after.
 */
final class RespGuard extends ChannelInboundHandlerAdapter
{
    /** Redis's limit on the arguments of a command before AUTH. */
    static final int UNAUTHENTICATED_ARGS = 10;
    /** Redis's limit on an argument before AUTH. */
    static final int UNAUTHENTICATED_BULK = 16 * 1024;

    private final int maxArgs;
    private final int maxBulk;
    private final long maxRequest;
    private final BooleanSupplier authenticated;
    private final InputBudget budget;
    private final InputBudget.Account account;
    private ChannelHandlerContext ctx;
    private long remaining;
    private long requestBytes;
    private boolean failed;

    /**
     * @param maxArgs    most arguments of one command.
     * @param maxBulk    longest argument.
     * @param maxRequest    most bytes of arguments of one command.
     * @param budget        the daemon's bound on buffered input.
     * @param authenticated whether the client has authenticated (or needs not).
     */
    RespGuard(final int maxArgs, final int maxBulk, final long maxRequest, final InputBudget budget,
        final BooleanSupplier authenticated)
    {
        this.maxArgs = maxArgs;
        this.maxBulk = maxBulk;
        this.maxRequest = maxRequest;
        this.authenticated = authenticated;
        this.budget = budget;
        this.account = budget.open(this::evicted);
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        account.release();
        ctx.fireChannelInactive();
    }

    /** From any thread: the budget chose this connection to give way. */
    private void evicted(final String message)
    {
        final ChannelHandlerContext context = ctx;
        if (context != null)
        {
            context.executor().execute(() ->
            {
                if (!failed)
                {
                    fail(context, null, message);
                    // not within a read: ask for the error reply to be written now
                    context.fireChannelReadComplete();
                }
            });
        }
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
            if (!authenticated.getAsBoolean() && length > UNAUTHENTICATED_ARGS)
            {
                fail(ctx, msg, "Protocol error: unauthenticated multibulk length (at most " + UNAUTHENTICATED_ARGS +
                    " arguments before AUTH)");
                return;
            }
            if (length > maxArgs)
            {
                fail(ctx, msg, "Protocol error: invalid multibulk length (more than " + maxArgs + " arguments)");
                return;
            }
            remaining = Math.max(0, length);
            requestBytes = 0;
        }
        else if (msg instanceof BulkStringHeaderRedisMessage)
        {
            final String refusal = admit(((BulkStringHeaderRedisMessage)msg).bulkStringLength());
            if (refusal != null)
            {
                fail(ctx, msg, refusal);
                return;
            }
        }
        else if (msg instanceof FullBulkStringRedisMessage)
        {
            final FullBulkStringRedisMessage bulk = (FullBulkStringRedisMessage)msg;
            final String refusal = admit(bulk.isNull() ? 0 : bulk.content().readableBytes());
            if (refusal != null)
            {
                fail(ctx, msg, refusal);
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
        if (remaining == 0)
        {
            // the command has been handed on (run, or copied to wait its turn): its input is no longer buffered
            account.release();
        }
    }

    /** @return null when an argument of this length may be read, else the error naming the limit it breaks. */
    private String admit(final int length)
    {
        final boolean before = !authenticated.getAsBoolean();
        final int bulkLimit = before ? Math.min(maxBulk, UNAUTHENTICATED_BULK) : maxBulk;
        if (length > bulkLimit)
        {
            return before ? "Protocol error: unauthenticated bulk length (at most " + bulkLimit +
                " bytes before AUTH)" : "Protocol error: invalid bulk length (longer than " + bulkLimit +
                " bytes, --max-bulk-bytes)";
        }
        requestBytes += length;
        if (requestBytes > maxRequest)
        {
            return "command larger than the limit of " + maxRequest + " bytes (--max-request-bytes)";
        }
        if (!account.reserve((long)length + InputBudget.ARGUMENT_OVERHEAD))
        {
            return "command input over the daemon's limit of " + budget.limit() + " bytes buffered across all " +
                "connections (--max-input-bytes); this connection held the most";
        }
        return null;
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
        account.release();
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
