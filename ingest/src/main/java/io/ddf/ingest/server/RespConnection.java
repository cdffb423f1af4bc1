package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Operation;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One RESP connection (RESP2 until the client says {@code HELLO 3}: {@link ClientState}), its lifecycle and its
 * decoding: registers with the router, hands each command {@link RespDecoder} reads to the {@link CommandTable}, and lets the {@link ReplyQueue} write the replies in command order as verdicts complete
 * them (an EXEC's as one array). While a command waits for work off the event loop
 * ({@link #await}), reading pauses and the commands already read wait their turn ({@code parked}).
 *
 * <p>With a password set, a connection is a stranger until its AUTH: strangers hold at most half the client slots
 * ({@link StrangerSlots}), are closed after {@code --auth-timeout}, and a wrong password is answered late and
 * closes the connection after a few tries ({@link AuthThrottle}); what a stranger may send is bounded by
 * {@link RespDecoder}.
 */
final class RespConnection extends Connection implements Session
{
    private static final ErrorRedisMessage MAX_CLIENTS = new ErrorRedisMessage("ERR max number of clients reached");

    private final DdfServer server;
    private final CommandTable commands;
    private final ReplyQueue replies = new ReplyQueue();
    private final KeyCache keys = new KeyCache();
    /** Commands read while one waits for work off the event loop (copies, released once run). */
    private final ArrayDeque<ByteBuf[]> parked = new ArrayDeque<>();
    private boolean waiting;
    /** A protocol error read while waiting: its reply (and the close) come after the parked commands'. */
    private String parkedError;
    private boolean authenticated;
    private boolean registered;
    private boolean closing;
    private boolean failed;
    private boolean counted;
    /** Completed once every element published so far has its verdict ({@link #deferUntilJudged}). */
    private CompletableFuture<Void> judged;
    private final Transaction transaction = new Transaction();
    /** Set once registered (the id is the router's). */
    private ClientState client;
    /** Among the unauthenticated connections, which may hold only half the client slots. */
    private boolean stranger;
    private final AuthThrottle throttle = new AuthThrottle();
    /** Set once AUTH has failed too often: the commands pipelined after it are dropped, not run. */
    private boolean refused;

    /**
     * @param server   the daemon.
     * @param commands what it serves.
     */
    RespConnection(final DdfServer server, final CommandTable commands)
    {
        super(server.pipeline(), server.config().maxItemBytes, server.config().execution);
        this.server = server;
        this.commands = commands;
        this.authenticated = server.config().requirePass == null;
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        server.connectionsReceived.increment();
        counted = true;
        if (server.clients.incrementAndGet() > server.config().maxClients)
        {
            refuse(ctx);
            return;
        }
        final long tag = server.router().register(this);
        if (tag < 0)
        {
            refuse(ctx);
            return;
        }
        tag(tag);
        registered = true;
        client = new ClientState(id(), ctx.channel().remoteAddress(), ctx.channel().localAddress());
        server.clientList.add(client);
        if (!authenticated)
        {
            stranger = true;
            final RespConnection oldest = server.strangers.add(this);
            if (oldest != null)
            {
                oldest.ctx.executor().execute(oldest::giveWay);
            }
            final int timeout = server.config().authTimeoutSeconds;
            if (timeout > 0)
            {
                ctx.executor().schedule(this::authTimedOut, timeout, TimeUnit.SECONDS);
            }
        }
        ctx.fireChannelActive();
    }

    private void refuse(final ChannelHandlerContext ctx)
    {
        closing = true;
        ctx.channel().config().setAutoRead(false);
        ctx.writeAndFlush(MAX_CLIENTS).addListener(ChannelFutureListener.CLOSE);
    }

    /** On this connection's event loop: the oldest stranger makes room for a newer one. */
    private void giveWay()
    {
        stranger = false;
        if (!authenticated && !closing)
        {
            server.connectionLog.log("ddf: closing the oldest unauthenticated connection (from " +
                ctx.channel().remoteAddress() + ") to make room: strangers may hold half of --max-clients");
            protocolError("too many unauthenticated connections (half of --max-clients); closing the oldest");
            onVerdicts();
        }
    }

    /** A stranger that has not authenticated in time gives its slot back. */
    private void authTimedOut()
    {
        if (!authenticated && !closing)
        {
            server.connectionLog.log("ddf: closing a connection from " + ctx.channel().remoteAddress() +
                " that did not AUTH within --auth-timeout " + server.config().authTimeoutSeconds + " s");
            protocolError("no AUTH within " + server.config().authTimeoutSeconds + " s (--auth-timeout); closing");
            onVerdicts();
        }
    }

    private void leaveStrangers()
    {
        if (stranger)
        {
            stranger = false;
            server.strangers.remove(this);
        }
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        closing = true;
        if (counted)
        {
            server.clients.decrementAndGet();
            counted = false;
        }
        leaveStrangers();
        if (registered)
        {
            server.router().unregister(tag());
            server.clientList.remove(client);
            registered = false;
        }
        transaction.discard();
        drop();
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (msg instanceof ByteBuf[] args)
        {
            // a command's arguments, slices of the input: run (or copied to wait), then released
            try
            {
                if (!closing && !failed && ctx.channel().isActive())
                {
                    dispatch(args);
                }
            }
            finally
            {
                release(args);
            }
            return;
        }
        try
        {
            if (closing || failed || !ctx.channel().isActive())
            {
                return;
            }
            protocolError(msg instanceof RespDecoder.ProtocolError error ? error.message() :
                "Protocol error: expected a command (an array of bulk strings)");
        }
        finally
        {
            ReferenceCountUtil.release(msg);
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
        if (!ctx.channel().isWritable() && !closing)
        {
            overLimit();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt)
    {
        if (evt instanceof IdleStateEvent)
        {
            closing = true;
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (cause instanceof DecoderException)
        {
            final Throwable root = cause.getCause() != null ? cause.getCause() : cause;
            protocolError("Protocol error: " + OneLine.of(root));
            onVerdicts();
            return;
        }
        if (!(cause instanceof IOException))
        {
            server.connectionLog.log("ddf: closing a client connection: " + OneLine.of(cause));
        }
        closing = true;
        ctx.close();
    }

    private void protocolError(final String message)
    {
        if (failed)
        {
            return;
        }
        failed = true;
        ctx.channel().config().setAutoRead(false);
        if (waiting)
        {
            // after the replies of the commands read before the bad frame, which wait for the awaited work
            parkedError = message;
            return;
        }
        replies.readyThenClose(new ErrorRedisMessage("ERR " + message));
    }

    private void overLimit()
    {
        server.connectionLog.log("ddf: closing a connection from " + ctx.channel().remoteAddress() + " whose " +
            "unsent replies passed --client-output-limit " + server.config().clientOutputLimit + " bytes");
        closing = true;
        ctx.close();
    }

    /** Drops every reply not yet written and every command not yet run. */
    private void drop()
    {
        replies.drop();
        ByteBuf[] args;
        while ((args = parked.poll()) != null)
        {
            release(args);
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
        final ReplyQueue.Outcome outcome = replies.write(ctx, this);
        if (outcome == ReplyQueue.Outcome.CLOSE)
        {
            closing = true;
            ctx.close();
            drop();
            return;
        }
        if (outcome == ReplyQueue.Outcome.WROTE && !ctx.channel().isWritable())
        {
            overLimit();
            return;
        }
        if (judged != null && outstanding() == 0)
        {
            final CompletableFuture<Void> done = judged;
            judged = null;
            done.complete(null);
        }
    }

    private void dispatch(final ByteBuf[] args)
    {
        server.commandsProcessed.increment();
        if (waiting)
        {
            parked.add(copy(args));
            return;
        }
        commands.execute(this, args);
    }

    private static ByteBuf[] copy(final ByteBuf[] args)
    {
        final ByteBuf[] copies = new ByteBuf[args.length];
        for (int i = 0; i < args.length; i++)
        {
            copies[i] = Unpooled.copiedBuffer(args[i]);
        }
        return copies;
    }

    private static void release(final ByteBuf[] args)
    {
        for (final ByteBuf arg : args)
        {
            arg.release();
        }
    }

    @Override
    public ReplyQueue replies()
    {
        return replies;
    }

    @Override
    public String key(final ByteBuf arg)
    {
        return keys.key(arg);
    }

    @Override
    public long id()
    {
        return tag() >>> VerdictRouter.SLOT_BITS;
    }

    @Override
    public ClientState client()
    {
        return client;
    }

    @Override
    public Transaction transaction()
    {
        return transaction;
    }

    @Override
    public void runAll(final List<ByteBuf[]> queued)
    {
        for (int i = 0; i < queued.size(); i++)
        {
            if (waiting)
            {
                // the rest run before the commands read meanwhile: ahead of them, in their order
                for (int j = queued.size() - 1; j >= i; j--)
                {
                    parked.addFirst(queued.get(j));
                }
                return;
            }
            try
            {
                commands.execute(this, queued.get(i));
            }
            finally
            {
                release(queued.get(i));
            }
        }
    }

    @Override
    public boolean authenticated()
    {
        return authenticated;
    }

    @Override
    public void authenticate()
    {
        authenticated = true;
        leaveStrangers();
    }

    @Override
    public void authFailed(final String error)
    {
        final long delay = throttle.failed();
        final boolean close = throttle.exhausted();
        server.authLog.log("ddf: failed AUTH from " + ctx.channel().remoteAddress() + " (" + throttle.failures() +
            (close ? " on this connection; closing it)" : " on this connection)"));
        if (close)
        {
            refused = true;
        }
        final CompletableFuture<Void> later = new CompletableFuture<>();
        ctx.executor().schedule(() -> later.complete(null), delay, TimeUnit.MILLISECONDS);
        await(later, () ->
        {
            if (close)
            {
                failed = true;
                replies.readyThenClose(new ErrorRedisMessage(error + " Too many failures; closing."));
            }
            else
            {
                replies.error(error);
            }
        });
    }

    @Override
    public void publish(final DuplicateFilter filter, final Operation operation, final ByteBuf item)
    {
        submit(filter, operation, item);
    }

    @Override
    public void await(final CompletableFuture<?> work, final Runnable then)
    {
        waiting = true;
        ctx.channel().config().setAutoRead(false);
        work.whenComplete((done, failure) -> ctx.executor().execute(() -> resume(failure, then)));
    }

    @Override
    public void retryAfter(final CompletableFuture<?> work, final ByteBuf[] args)
    {
        final ByteBuf[] copies = copy(args);
        await(work, () ->
        {
            try
            {
                commands.execute(this, copies);
            }
            finally
            {
                release(copies);
            }
        });
    }

    @Override
    public boolean deferUntilJudged(final ByteBuf[] args)
    {
        if (unjudged() == 0)
        {
            return false; // every earlier element is counted (inline: always, as each was judged in place)
        }
        judged = new CompletableFuture<>();
        retryAfter(judged, args);
        return true;
    }

    /** On the event loop once the awaited work is done: its reply, then the commands read meanwhile. */
    private void resume(final Throwable failure, final Runnable then)
    {
        waiting = false;
        if (closing)
        {
            drop();
            return;
        }
        if (failure != null)
        {
            replies.error(Session.message(failure));
        }
        else
        {
            try
            {
                then.run();
            }
            catch (final RespError | FilterStoreException e)
            {
                replies.error(Session.message(e));
            }
        }
        ByteBuf[] args;
        while (!waiting && !refused && (args = parked.poll()) != null)
        {
            try
            {
                commands.execute(this, args);
            }
            finally
            {
                release(args);
            }
        }
        if (!waiting && parkedError != null)
        {
            replies.readyThenClose(new ErrorRedisMessage("ERR " + parkedError));
            parkedError = null;
        }
        if (!waiting && !failed)
        {
            ctx.channel().config().setAutoRead(true);
        }
        onVerdicts();
    }
}
