package io.ddf.ingest.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayDeque;

/**
 * A RESP connection's replies, written strictly in command order: a reply ready now waits behind any reply still
 * waiting for the verdicts of its elements ({@link Pending}). One {@link #write} writes what is complete (the verdict
 * replies as one buffer, {@link VerdictBytes}) and flushes once. Owned by the connection's event loop.
 */
final class ReplyQueue
{
    /** What {@link #write} did. */
    enum Outcome
    {
        /** Nothing was written. */
        NONE,
        /** Replies were written and flushed. */
        WROTE,
        /** A reply that closes the connection (QUIT, a protocol error) was written: close now. */
        CLOSE
    }

    private final ArrayDeque<Pending> replies = new ArrayDeque<>();
    /** The verdict replies of the current write, encoded into one buffer. */
    private final VerdictBytes bytes = new VerdictBytes();

    /** @param message a reply ready now. */
    void ready(final RedisMessage message)
    {
        replies.add(Pending.ready(message, false));
    }

    /** @param message a reply after which the connection closes. */
    void readyThenClose(final RedisMessage message)
    {
        replies.add(Pending.ready(message, true));
    }

    /** @param message an error reply, e.g. {@code ERR item exists}. */
    void error(final String message)
    {
        ready(new ErrorRedisMessage(message));
    }

    /** @param pending a reply that waits for the verdicts of elements about to be published. */
    void awaitVerdicts(final Pending pending)
    {
        replies.add(pending);
    }

    /**
     * Writes every reply at the head of the queue that is complete, taking verdicts as they complete them.
     *
     * @param ctx      the connection.
     * @param verdicts the connection's verdicts.
     * @return what was written.
     */
    Outcome write(final ChannelHandlerContext ctx, final Connection verdicts)
    {
        boolean wrote = false;
        Pending p;
        while ((p = replies.peek()) != null)
        {
            if (p.type == Pending.READY)
            {
                replies.poll();
                bytes.writeTo(ctx); // the verdict replies before it go first
                ctx.write(p.message);
                wrote = true;
                if (p.closeAfter)
                {
                    ctx.flush();
                    return Outcome.CLOSE;
                }
                continue;
            }
            final int available = verdicts.available();
            if (available == 0)
            {
                break;
            }
            if (p.type == Pending.ONE)
            {
                replies.poll();
                bytes.integer(verdicts.next() != p.add);
                wrote = true;
                continue;
            }
            final int take = Math.min(available, p.count - p.filled);
            for (int i = 0; i < take; i++)
            {
                p.values[p.filled++] = (byte)(verdicts.next() != p.add ? 1 : 0);
            }
            if (p.filled < p.count)
            {
                break;
            }
            replies.poll();
            bytes.arrayHeader(p.count);
            for (final byte value : p.values)
            {
                bytes.integer(value != 0);
            }
            wrote = true;
        }
        if (wrote)
        {
            bytes.writeTo(ctx);
            ctx.flush();
        }
        return wrote ? Outcome.WROTE : Outcome.NONE;
    }

    /** Drops every reply not yet written (the connection is closing). */
    void drop()
    {
        bytes.drop();
        Pending p;
        while ((p = replies.poll()) != null)
        {
            if (p.message != null)
            {
                ReferenceCountUtil.release(p.message);
            }
        }
    }
}
