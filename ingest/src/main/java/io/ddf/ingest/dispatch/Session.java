package io.ddf.ingest.dispatch;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Operation;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.resp.ReplyWriter;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.WrongTypeException;
import io.netty.buffer.ByteBuf;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * What a command handler may do with the connection that sent the command: queue its reply, publish elements
 * whose verdicts make a later reply, or wait for work done off the event loop. Every method is called on the
 * connection's event loop.
 */
public interface Session
{
    /** @return the connection's replies, in command order. */
    ReplyWriter replies();

    /**
     * @param arg a key argument.
     * @return its text ({@link Replies#key}), the same String as last time when the key repeats.
     */
    String key(ByteBuf arg);

    /** @return the client's id (CLIENT ID, HELLO). */
    long id();

    /** @return what the client said about itself, and its protocol ({@link Replies} reads it). */
    ClientState client();

    /** @return the open MULTI, if any. */
    Transaction transaction();

    /**
     * Runs commands one after the other as if the client had sent them now (EXEC): if one waits for work off the
     * event loop ({@link #await}), the rest run after it, before any command read later.
     *
     * @param queued the commands (copies; released once run).
     */
    void runAll(java.util.List<ByteBuf[]> queued);

    /** @return whether the client may run commands (the default user needs no password, or AUTH given). */
    boolean authenticated();

    /** @return the user the connection is (or would be, before AUTH) authenticated as. */
    io.ddf.ingest.acl.Identity identity();

    /**
     * Marks the client authenticated as a user.
     *
     * @param identity the user.
     */
    void authenticate(io.ddf.ingest.acl.Identity identity);

    /**
     * A wrong password: the error is the reply, given after a delay that grows with each failure on the connection
     * and on the user; after a few failures the connection is closed ({@link AuthThrottle}).
     *
     * @param error        the error reply.
     * @param atLeastMillis the user's delay ({@link io.ddf.ingest.acl.AuthFailures}): the reply waits at least this.
     */
    void authFailed(String error, long atLeastMillis);

    /**
     * The one check of an item's length ({@code --max-item-bytes}) for every command that takes items: a ring slot
     * holds at most that many bytes, and inline execution keeps the limit so that both modes answer alike.
     *
     * @param args  the command.
     * @param first the index of its first item; every argument from there on is an item.
     * @throws RespError naming the limit when an item is longer.
     */
    void checkItems(ByteBuf[] args, int first);

    /**
     * Judges {@code args[first..]} against the filter, each an element, on this event loop or through the pipeline
     * ({@code serve --execution}), and places the reply their verdicts make: 1 (RESP3 true) for an element streamed
     * UNSEEN or found present, else 0 (false), one value or an array of them. Checks the items' length first
     * ({@link #checkItems}). Call holding the filter's {@link FilterStore.Lease}.
     *
     * @param filter    the filter.
     * @param operation stream (judge and record) or contains (judge only).
     * @param args      the command.
     * @param first     the index of its first item; every argument from there on is one.
     * @param array     whether the reply is an array (BF.MADD, BF.MEXISTS) rather than one value (BF.ADD).
     */
    void judge(DuplicateFilter filter, Operation operation, ByteBuf[] args, int first, boolean array);

    /**
     * Waits for work running off the event loop (a filter file being created) without blocking the event loop:
     * the connection stops reading, later commands already read wait, and so do their replies. Once the work is
     * done, {@code then} runs on the event loop (or its failure is the reply), and the later commands run.
     *
     * @param work the work, completing exceptionally with a {@link RespError} to reply with.
     * @param then queues the command's reply, on the event loop.
     */
    void await(CompletableFuture<?> work, Runnable then);

    /**
     * {@link #await} the work, then runs the command again (e.g. BF.ADD once its filter exists).
     *
     * @param work the work.
     * @param args the command (copied: the caller's buffers are released when it returns).
     */
    void retryAfter(CompletableFuture<?> work, ByteBuf[] args);

    /**
     * For a command that reads a filter's state (BF.CARD, BF.INFO, INFO): when elements this connection published
     * earlier are still in the pipeline, runs the command again once their verdicts are in, so that its reply
     * reflects every earlier command of the connection (the pipeline updates a filter's counts before it hands
     * the verdict back). Later commands of the connection wait meanwhile ({@link #await}).
     *
     * @param args the command (copied).
     * @return true when the command was deferred: the caller returns without replying.
     */
    boolean deferUntilJudged(ByteBuf[] args);

    /**
     * @param failure a command's failure, or one of work done off the event loop.
     * @return the RESP error it replies with: a {@link RespError}'s own, Redis's WRONGTYPE for a
     *         {@link WrongTypeException}, {@code ERR} and the message of any other (a {@link FilterStoreException}'s
     *         says what the store could not do).
     */
    static String message(final Throwable failure)
    {
        final Throwable cause = failure instanceof CompletionException && failure.getCause() != null ?
            failure.getCause() : failure;
        if (cause instanceof RespError)
        {
            return cause.getMessage();
        }
        return cause instanceof WrongTypeException ? RespError.WRONGTYPE : "ERR " + OneLine.of(cause);
    }
}
