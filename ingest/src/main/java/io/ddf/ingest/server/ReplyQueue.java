package io.ddf.ingest.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

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
    /** The replies of an EXEC being gathered into its array, or null. */
    private List<RedisMessage> group;
    private int groupRemaining;
    /** The verdict replies of the current write outside an EXEC, encoded into one buffer. */
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

    /** @param count the next this many replies go out as one array (EXEC's), however they complete. */
    void group(final int count)
    {
        replies.add(Pending.group(count));
    }

    /** Writes a reply, or adds it to the EXEC array being gathered; true when something was written. */
    private boolean emit(final ChannelHandlerContext ctx, final RedisMessage message)
    {
        if (group == null)
        {
            bytes.writeTo(ctx); // the verdict replies encoded before it go first
            ctx.write(message);
            return true;
        }
        group.add(message);
        if (--groupRemaining > 0)
        {
            return false;
        }
        final List<RedisMessage> values = group;
        group = null;
        bytes.writeTo(ctx);
        ctx.write(new ArrayRedisMessage(values));
        return true;
    }

    /** A verdict reply: encoded into the batch's bytes, or (inside an EXEC) a message of the group. */
    private boolean emitVerdict(final ChannelHandlerContext ctx, final boolean resp3, final boolean value)
    {
        if (group == null)
        {
            bytes.bool(resp3, value);
            return true;
        }
        return emit(ctx, Replies.bool(resp3, value));
    }

    /** BF.MADD's and BF.MEXISTS's array of verdicts, the same way. */
    private boolean emitVerdicts(final ChannelHandlerContext ctx, final Pending p)
    {
        if (group == null)
        {
            bytes.arrayHeader(p.count);
            for (final byte value : p.values)
            {
                bytes.bool(p.resp3, value != 0);
            }
            return true;
        }
        final List<RedisMessage> values = new ArrayList<>(p.count);
        for (final byte value : p.values)
        {
            values.add(Replies.bool(p.resp3, value != 0));
        }
        return emit(ctx, new ArrayRedisMessage(values));
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
            if (p.type == Pending.GROUP)
            {
                replies.poll();
                if (p.count == 0)
                {
                    ctx.write(new ArrayRedisMessage(new ArrayList<>()));
                    wrote = true;
                }
                else
                {
                    group = new ArrayList<>(p.count);
                    groupRemaining = p.count;
                }
                continue;
            }
            if (p.type == Pending.READY)
            {
                replies.poll();
                wrote |= emit(ctx, p.message);
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
                wrote |= emitVerdict(ctx, p.resp3, verdicts.next() != p.add);
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
            wrote |= emitVerdicts(ctx, p);
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
        if (group != null)
        {
            group.forEach(ReferenceCountUtil::release);
            group = null;
        }
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
