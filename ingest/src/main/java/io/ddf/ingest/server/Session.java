package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Operation;
import io.netty.buffer.ByteBuf;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * What a command handler may do with the connection that sent the command: queue its reply, publish elements
 * whose verdicts make a later reply, or wait for work done off the event loop. Every method is called on the
 * connection's event loop.
 */
interface Session
{
    /** @return the connection's replies, in command order. */
    ReplyQueue replies();

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

    /** @return whether the client may run commands (no password, or AUTH given). */
    boolean authenticated();

    /** Marks the client authenticated. */
    void authenticate();

    /**
     * A wrong password: the error is the reply, given after a delay that grows with each failure; after a few
     * failures the connection is closed ({@link AuthThrottle}).
     *
     * @param error the error reply.
     */
    void authFailed(String error);

    /**
     * Judges one element, on this event loop or through the pipeline ({@code serve --execution}); its verdict
     * completes the {@link Pending} reply queued before. Call holding the filter's {@link FilterStore.Lease}.
     *
     * @param filter    the filter.
     * @param operation stream or contains.
     * @param item      the element.
     */
    void publish(DuplicateFilter filter, Operation operation, ByteBuf item);

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
     * @return the RESP error it replies with: a {@link RespError}'s own, {@code ERR} and the message of any other
     *         (a {@link FilterStoreException}'s says what the store could not do).
     */
    static String message(final Throwable failure)
    {
        final Throwable cause = failure instanceof CompletionException && failure.getCause() != null ?
            failure.getCause() : failure;
        return cause instanceof RespError ? cause.getMessage() : "ERR " + OneLine.of(cause);
    }
}
