package io.ddf.ingest.session;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Operation;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.Conductor;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.resp.DurabilityBarrier;
import io.ddf.ingest.resp.HeldArguments;
import io.ddf.ingest.resp.ReplyWriter;
import io.ddf.ingest.resp.RespDecoder;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterStoreException;
import io.ddf.persistence.log.LogUnavailableException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One RESP connection: the Netty handler and its {@link State}. It holds the parts of its request path: the
 * connection pulls each complete command from its {@link RespDecoder} and runs it through the shared
 * {@link Conductor} with the client's {@link Session} (what a handler is given: its replies, user, MULTI, key
 * text); their elements are judged by the {@link VerdictRing}; their replies go into the {@link ReplyWriter},
 * encoded as each command completes and flushed once per read ({@link #channelReadComplete}). A command reaches
 * back here only for what outlives it ({@link Session.Connection}: work off the event loop, the verdict ring, the
 * rest of an EXEC, a late AUTH error).
 *
 * <p>While a command waits for work off the event loop ({@link #await}: a filter being created, a delayed AUTH
 * error), the connection is {@link State#WAITING}: reading pauses and the commands already read stay undecoded in
 * the input, to run in order once the work is done. With a password set, a connection is a stranger until its
 * AUTH: strangers hold at most half the client slots ({@link StrangerSlots}), are closed after
 * {@code --auth-timeout}, and a wrong password is answered late and closes the connection after a few tries
 * ({@link AuthThrottle}); what a stranger may send is bounded by the {@link RespDecoder}.
 */
public final class RespConnection extends ChannelInboundHandlerAdapter
    implements Session.Connection, VerdictRing.Owner
{
    /** Where the connection is in its life; each event is handled by it. */
    enum State
    {
        /** Not yet active, or refused: nothing runs. */
        NEW,
        /** Commands run as they are read. */
        OPEN,
        /** A command waits for work off the event loop; the commands read after it wait, undecoded. */
        WAITING,
        /** A reply that closes has its place (QUIT, an error that ends the connection): nothing more runs. */
        CLOSING,
        /** The channel is closed or closing: what was not written is dropped. */
        CLOSED
    }

    private static final ErrorRedisMessage MAX_CLIENTS = new ErrorRedisMessage("ERR max number of clients reached");

    private final Connections server;
    private final Conductor conductor;
    private final ClientRegistry registry;
    private final RespDecoder decoder;
    private final VerdictRing verdicts;
    private final ReplyWriter replies;
    private final Session session;
    /** {@code --client-output-limit}: bytes of unsent replies past which the connection is closed. */
    private final int outputLimit;
    private final AuthThrottle throttle = new AuthThrottle();
    private ChannelHandlerContext ctx;
    private State state = State.NEW;
    /** Whether the registry admitted it (and it has not left). */
    private boolean admitted;
    /** An error that ends the connection, arrived while a command waited: written after that command's reply. */
    private String failure;
    /** The rest of an EXEC whose command waited: they run before the commands read after the EXEC. */
    private final ArrayDeque<ByteBuf[]> deferred = new ArrayDeque<>();
    /** Completed once every element published so far has its verdict ({@link #deferUntilJudged}). */
    private CompletableFuture<Void> judged;
    /** Whether the client ended its input (a half close): the connection closes once it is answered. */
    private boolean inputEnded;
    /** Whether {@link #flush} is queued on the event loop. */
    private boolean flushScheduled;
    /** Writes the replies of this pass of the event loop ({@link #channelReadComplete}). */
    private final Runnable flush = () ->
    {
        flushScheduled = false;
        onVerdicts();
    };

    /** @param server what of the daemon the connection uses. */
    public RespConnection(final Connections server)
    {
        final ServerConfig config = server.config();
        final Conductor conductor = server.conductor();
        final DurabilityBarrier barrier = server.barrier();
        this.server = server;
        this.conductor = conductor;
        this.registry = server.clients();
        final io.ddf.ingest.acl.Acl acl = server.acl();
        this.decoder = new RespDecoder(config.maxInlineBytes, config.maxArgs, config.maxBulkBytes,
            config.maxRequestBytes, conductor.table()::largeArguments, server.inputBudget(), this::evicted);
        this.verdicts = new VerdictRing(server.pipeline(), config.maxItemBytes,
            config.execution == ServerConfig.Execution.INLINE, this);
        this.replies = new ReplyWriter(barrier, () -> verdicts.unjudged() == 0);
        this.outputLimit = config.clientOutputLimit;
        this.session = new Session(this, replies, config.maxItemBytes, acl.defaultIdentity(),
            acl.defaultAuthenticates());
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
        replies.attach(ctx);
        verdicts.attach(ctx.executor());
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        admitted = registry.admit(verdicts, session, ctx.channel().remoteAddress(), ctx.channel().localAddress());
        if (!admitted)
        {
            state = State.CLOSING;
            ctx.channel().config().setAutoRead(false);
            replies.readyThenClose(MAX_CLIENTS);
            replies.flushThenClose();
            return;
        }
        state = State.OPEN;
        if (!session.authenticated())
        {
            final RespConnection oldest = registry.stranger(this);
            if (oldest != null)
            {
                oldest.ctx.executor().execute(() -> oldest.endUnauthenticated("too many unauthenticated " +
                    "connections (half of --max-clients); closing the oldest", "to make room: strangers may " +
                    "hold half of --max-clients"));
            }
            final int timeout = server.config().authTimeoutSeconds;
            if (timeout > 0)
            {
                ctx.executor().schedule(() -> endUnauthenticated("no AUTH within " + timeout +
                    " s (--auth-timeout); closing", "that did not AUTH within --auth-timeout " + timeout + " s"),
                    timeout, TimeUnit.SECONDS);
            }
        }
        ctx.fireChannelActive();
    }

    /** On this event loop: a stranger that must go (timed out, or the oldest when the strangers' slots are full). */
    private void endUnauthenticated(final String error, final String why)
    {
        if (!session.authenticated() && state != State.CLOSED && state != State.CLOSING)
        {
            server.connectionLog().log("ddf: closing a connection from " + ctx.channel().remoteAddress() + " " + why);
            fail(error);
            onVerdicts();
        }
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        state = State.CLOSED;
        if (admitted)
        {
            registry.leave(session, verdicts, this);
            admitted = false;
        }
        session.discard();
        decoder.close();
        drop();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(final ChannelHandlerContext ctx)
    {
        decoder.close();
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (!(msg instanceof ByteBuf read) || state == State.CLOSED || state == State.NEW)
        {
            ReferenceCountUtil.release(msg);
            return;
        }
        decoder.read(ctx.alloc(), read);
        runCommands();
    }

    @Override
    public void channelReadComplete(final ChannelHandlerContext ctx)
    {
        // the replies leave after every connection this pass of the event loop found readable has been read and
        // run (a task runs after the pass's I/O), as Redis writes them before it sleeps: one flush per connection
        // per pass, and the clients woken after the loop's work, not between two connections' commands. Measured
        // with BF.ADD -P 16 after a 6,000,000-command warm-up, three rounds alternated with the flush at the end
        // of each read: 699,790 / 781,861 / 781,250 req/s against 579,374 / 673,401 / 707,214, and 1.28-1.58
        // against 1.41-1.82 CPU microseconds per command (two jars side by side, load 3.3-5.0; bench/README)
        if (!flushScheduled)
        {
            flushScheduled = true;
            ctx.executor().execute(flush);
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(final ChannelHandlerContext ctx)
    {
        if (!ctx.channel().isWritable() && state != State.CLOSED)
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
            state = State.CLOSED;
            ctx.close();
            return;
        }
        if (evt instanceof ChannelInputShutdownEvent)
        {
            inputEnded = true;
            if (state == State.OPEN)
            {
                endAfterReplies();
            }
            return; // WAITING: resume() ends it once the command awaited and the ones read after it have run
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (!(cause instanceof IOException))
        {
            server.connectionLog().log("ddf: closing a client connection: " + OneLine.of(cause));
        }
        state = State.CLOSED;
        ctx.close();
    }

    /**
     * Runs the complete commands of the input one after the other, each pulled from the decoder once the one before
     * has run, for as long as commands may run (not while one waits, or once a reply closes); the rest stay in the
     * input. A refused input is answered with its error, then the connection closes.
     */
    private void runCommands()
    {
        ByteBuf[] args;
        session.deferral().open();
        try
        {
            while (state == State.OPEN && (args = decoder.next(session.authenticated())) != null)
            {
                try
                {
                    conductor.run(session, args);
                }
                finally
                {
                    for (final ByteBuf arg : args)
                    {
                        arg.release();
                    }
                }
                afterCommand();
            }
        }
        finally
        {
            // what the last commands left undone (pipelined adds) is done before the replies leave
            session.deferral().close();
        }
        afterCommand();
        final String refusal = decoder.refusal();
        if (refusal != null)
        {
            fail(refusal);
        }
    }

    /**
     * The client ended its input (a half close, as {@code printf ... | nc} does): every command it sent is answered,
     * then the connection closes, as Redis answers what it read before it reads the end.
     */
    private void endAfterReplies()
    {
        state = State.CLOSING;
        ctx.channel().config().setAutoRead(false);
        replies.closeAfterQueued();
        onVerdicts();
    }

    /** After each command: a closing reply ends the reading; what the command completed is encoded now. */
    private void afterCommand()
    {
        if (state == State.OPEN && replies.closing())
        {
            state = State.CLOSING;
            ctx.channel().config().setAutoRead(false);
        }
        replies.drain(verdicts);
    }

    /** From any thread: the input budget chose this connection to give way. */
    private void evicted(final String message)
    {
        final ChannelHandlerContext context = ctx;
        if (context != null)
        {
            context.executor().execute(() ->
            {
                if (!decoder.failed() && state != State.CLOSED)
                {
                    decoder.fail();
                    fail(message);
                    onVerdicts(); // not within a read: write the error now
                }
            });
        }
    }

    /**
     * An error that ends the connection: the last reply, after those of the commands before it (a command waiting
     * for work gets its reply first); no command runs after it, and nothing more is read.
     *
     * @param message the error, without the {@code ERR} code.
     */
    private void fail(final String message)
    {
        ctx.channel().config().setAutoRead(false);
        switch (state)
        {
            case WAITING -> failure = failure == null ? message : failure;
            case OPEN ->
            {
                state = State.CLOSING;
                replies.readyThenClose(new ErrorRedisMessage("ERR " + message));
            }
            default ->
            {
                // closing already: its last reply has its place
            }
        }
    }

    private void overLimit()
    {
        server.connectionLog().log("ddf: closing a connection from " + ctx.channel().remoteAddress() + " whose " +
            "unsent replies passed --client-output-limit " + outputLimit + " bytes");
        state = State.CLOSED;
        ctx.close();
    }

    /** Drops every reply not yet written, every command not yet run and every verdict not yet taken. */
    private void drop()
    {
        replies.drop();
        ByteBuf[] args;
        while ((args = deferred.poll()) != null)
        {
            HeldArguments.release(args);
        }
        verdicts.dropAvailable();
    }

    @Override
    public void onVerdicts()
    {
        if (state == State.CLOSED)
        {
            drop();
            return;
        }
        if (replies.drain(verdicts) == ReplyWriter.Outcome.CLOSE)
        {
            state = State.CLOSED;
            replies.flushThenClose();
            drop();
            return;
        }
        if (replies.flush() && ctx.channel().isActive() && (!ctx.channel().isWritable() ||
            replies.held() > outputLimit))
        {
            overLimit();
            return;
        }
        if (judged != null && verdicts.outstanding() == 0)
        {
            final CompletableFuture<Void> done = judged;
            judged = null;
            done.complete(null);
        }
    }

    // Session.Connection: what a command may ask of the connection that outlives it

    @Override
    public void runAll(final List<ByteBuf[]> queued)
    {
        for (int i = 0; i < queued.size(); i++)
        {
            if (state != State.OPEN)
            {
                // the rest run after the command that waits, before the commands read meanwhile, in their order
                for (int j = queued.size() - 1; j >= i; j--)
                {
                    deferred.addFirst(queued.get(j));
                }
                return;
            }
            try
            {
                conductor.run(session, queued.get(i));
                afterCommand();
            }
            finally
            {
                HeldArguments.release(queued.get(i));
            }
        }
    }

    @Override
    public void known()
    {
        registry.known(this);
    }

    @Override
    public void authFailed(final String error, final long atLeastMillis)
    {
        final long delay = Math.max(atLeastMillis, throttle.failed());
        final boolean close = throttle.exhausted();
        server.authLog().log("ddf: failed AUTH from " + ctx.channel().remoteAddress() + " (" + throttle.failures() +
            (close ? " on this connection; closing it)" : " on this connection)"));
        final CompletableFuture<Void> later = new CompletableFuture<>();
        ctx.executor().schedule(() -> later.complete(null), delay, TimeUnit.MILLISECONDS);
        await(later, () ->
        {
            if (close)
            {
                replies.readyThenClose(new ErrorRedisMessage(error + " Too many failures; closing."));
            }
            else
            {
                replies.error(error);
            }
        });
    }

    @Override
    public void judge(final DuplicateFilter filter, final Operation operation, final ByteBuf[] args, final int first,
        final boolean array)
    {
        if (operation == Operation.STREAM)
        {
            replies.wrote(filter);
        }
        replies.verdicts(operation == Operation.STREAM, args.length - first, array);
        final long judged = verdicts.judgedInline();
        try
        {
            if (args.length - first == 1)
            {
                verdicts.submit(filter, operation, args[first]);
                return;
            }
            verdicts.submitAll(filter, operation, args, first);
        }
        catch (final LogUnavailableException e)
        {
            // judged inline, an element's record could not be appended (the log's next segment could not be made):
            // those before it keep their verdicts, it and those after it get the refusal, and the reply is whole
            replies.cutVerdicts((int)(verdicts.judgedInline() - judged), conductor.refusalAfter(e));
        }
    }

    @Override
    public void await(final CompletableFuture<?> work, final Runnable then)
    {
        state = State.WAITING;
        ctx.channel().config().setAutoRead(false);
        work.whenComplete((done, failed) -> ctx.executor().execute(() -> resume(failed, then)));
    }

    @Override
    public void retryAfter(final CompletableFuture<?> work, final ByteBuf[] args)
    {
        final ByteBuf[] copies = HeldArguments.copy(args);
        await(work, () ->
        {
            try
            {
                conductor.run(session, copies);
            }
            finally
            {
                HeldArguments.release(copies);
            }
        });
    }

    @Override
    public boolean deferUntilJudged(final ByteBuf[] args)
    {
        if (verdicts.unjudged() == 0)
        {
            return false; // every earlier element is counted (inline: always, as each was judged in place)
        }
        judged = new CompletableFuture<>();
        retryAfter(judged, args);
        return true;
    }

    /**
     * On the event loop once the awaited work is done: its reply, then an error that came meanwhile, the rest of an
     * EXEC, and the commands read meanwhile, in order.
     */
    private void resume(final Throwable failed, final Runnable then)
    {
        if (state == State.CLOSED)
        {
            drop();
            return;
        }
        state = State.OPEN;
        if (failed != null)
        {
            replies.error(Session.message(failed));
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
        afterCommand();
        if (state == State.OPEN && failure != null)
        {
            final String message = failure;
            failure = null;
            fail(message);
        }
        ByteBuf[] args;
        while (state == State.OPEN && (args = deferred.poll()) != null)
        {
            try
            {
                conductor.run(session, args);
                afterCommand();
            }
            finally
            {
                HeldArguments.release(args);
            }
        }
        runCommands();
        if (state == State.OPEN && inputEnded)
        {
            endAfterReplies();
            return;
        }
        if (state == State.OPEN)
        {
            ctx.channel().config().setAutoRead(true);
        }
        onVerdicts();
    }
}
