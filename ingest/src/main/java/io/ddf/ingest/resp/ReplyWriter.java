package io.ddf.ingest.resp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayDeque;

/**
 * A RESP connection's replies, written in command order as bytes into the connection's output buffer: the request
 * path's proxy (Aeron's {@code ClientProxy}; Garnet writes its replies straight into the send buffer the same way).
 * Every reply takes its place in the order when its command runs. A reply whose place is at the head is encoded at
 * once; one behind a reply still waiting for verdicts (through the pipeline) waits in a queue, and is encoded when
 * it reaches the head ({@link #drain}). {@link #flush} writes what was encoded to the channel in one buffer, once per
 * read; under {@code serve --fsync always} it goes through the {@link DurabilityBarrier}'s gate instead, where a reply
 * that acknowledges a write ({@link #wrote}) leaves once the write is on the device (the gate hands it back to be
 * written when it may leave).
 *
 * <p>The protocol is chosen here and only here: the reply types whose RESP differs between RESP2 and RESP3
 * ({@link ReplyTypes}: booleans, nulls, doubles, maps, verbatim strings) are written ({@link RespEncoding}) in the
 * protocol in force at the reply's place in the order. HELLO's switch takes its place in the order too ({@link #protocol}), so a reply
 * waiting for its verdicts is written in the protocol its command ran in. EXEC's array header is written when it
 * reaches the head ({@link #group}); the replies of its commands follow it in order as any others do.
 *
 * <p>A reply is written as one buffer with the others of its read, however many elements it has: the channel
 * counts about a hundred bytes of bookkeeping per buffer against the output limit, and an array written a buffer per
 * element (as Netty's encoder does) got a 700,000-item BF.MEXISTS closed without a reply. Owned by the connection's event
 * loop.
 */
public final class ReplyWriter
{
    /** What {@link #drain} found. */
    public enum Outcome
    {
        /** Some replies may still wait; the connection goes on. */
        OPEN,
        /** A reply that closes the connection (QUIT, a protocol error) was written: flush, then close. */
        CLOSE
    }

    /** The verdicts a connection's elements get, in submission order (its {@link VerdictRing}). */
    public interface Verdicts
    {
        /** @return verdicts delivered and not yet taken. */
        int available();

        /** @return the next verdict, true for DUPLICATE (stream) or present (contains); only when available. */
        boolean next();

        /** @return why the element {@link #next} just took has no verdict (an error in its place), or null. */
        default String failed()
        {
            return null;
        }
    }

    private static final int INITIAL = 256;
    /** {@code :0\r\n} and {@code :1\r\n} as one int each: a verdict is one four-byte store. */
    private static final int ZERO = ':' << 24 | '0' << 16 | '\r' << 8 | '\n';
    private static final int ONE = ':' << 24 | '1' << 16 | '\r' << 8 | '\n';
    /** RESP3's {@code #t\r\n} and {@code #f\r\n}: four bytes too. */
    private static final int TRUE = '#' << 24 | 't' << 16 | '\r' << 8 | '\n';
    private static final int FALSE = '#' << 24 | 'f' << 16 | '\r' << 8 | '\n';
    /** BF.ADD's and BF.EXISTS's one-verdict entries: immutable, shared. */
    private static final Entry ADD_ONE = new Entry(Entry.ONE, true, 1);
    private static final Entry PRESENT_ONE = new Entry(Entry.ONE, false, 1);

    private final DurabilityBarrier barrier;
    private final java.util.function.BooleanSupplier settled;
    /**
     * What the encoded replies wait for before they leave (the sync of what they acknowledge, {@code --fsync
     * always}), or null when nothing ({@link DurabilityBarrier#NONE}, the default): they are written at once.
     */
    private DurabilityBarrier.Gate gate;
    private ChannelHandlerContext ctx;
    private boolean resp3;
    /** Replies encoded and not yet handed to the channel, or null. */
    private ByteBuf out;
    /** Replies that cannot be written yet, from the first one waiting for verdicts on. */
    private final ArrayDeque<Entry> queue = new ArrayDeque<>();
    /** A verdict array entry to reuse (inline, the array is written before the next command comes). */
    private Entry spare = new Entry(Entry.MANY, false, 0);
    /** A reply that closes the connection has been encoded: nothing after it is written. */
    private boolean closed;

    /**
     * @param barrier what a reply that acknowledges a write waits for ({@link DurabilityBarrier#NONE} unless
     *                {@code --fsync always}).
     * @param settled whether every element the connection published has been judged (none in the pipeline).
     */
    public ReplyWriter(final DurabilityBarrier barrier, final java.util.function.BooleanSupplier settled)
    {
        this.barrier = barrier;
        this.settled = settled;
    }

    /** @param ctx the connection's handler context, whose allocator and channel the replies use. */
    public void attach(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
        if (barrier == DurabilityBarrier.NONE)
        {
            return;
        }
        this.gate = barrier.gate(ctx.executor(), settled, new DurabilityBarrier.Output()
        {
            @Override
            public void write(final ByteBuf replies, final boolean closeAfter)
            {
                send(replies, closeAfter);
            }

            @Override
            public void unsynced()
            {
                ctx.close(); // the replies that acknowledged unsynced writes are dropped: the client sees a close
            }
        });
    }

    /**
     * The replies placed from now on acknowledge a write to this filter (a command that changed it, or elements
     * published to it): under {@code --fsync always} they leave once the write is on the device.
     *
     * @param filter the filter written.
     */
    public void wrote(final io.ddf.persistence.Syncable filter)
    {
        if (gate != null)
        {
            gate.wrote(filter);
        }
    }

    /** @return bytes of replies encoded and held until what they acknowledge is synced. */
    public long held()
    {
        return gate == null ? 0 : gate.held();
    }

    /** @return whether a reply that closes the connection has taken its place: no further command may run. */
    public boolean closing()
    {
        return closed || !queue.isEmpty() && queue.peekLast().closeAfter;
    }

    /** @param message a reply ready now. */
    public void ready(final RedisMessage message)
    {
        place(message, false);
    }

    /** @param message a reply after which the connection closes. */
    public void readyThenClose(final RedisMessage message)
    {
        place(message, true);
    }

    /** Closes the connection once the replies queued now are written (the client ended its input). */
    public void closeAfterQueued()
    {
        if (closing())
        {
            return;
        }
        if (queue.isEmpty())
        {
            closed = true;
            return;
        }
        queue.add(new Entry(null, true));
    }

    /**
     * A yes/no reply ready now, 1 or 0 (RESP3 true or false): at the head of the order its four bytes are written at
     * once (BF.ADD on a filter that grows), else it waits its turn as any reply does.
     *
     * @param yes the answer.
     */
    public void bool(final boolean yes)
    {
        if (closing())
        {
            return;
        }
        if (!queue.isEmpty())
        {
            queue.add(new Entry(Replies.bool(yes), false));
            return;
        }
        buffer(Integer.BYTES).writeInt(verdict(yes, resp3));
    }

    /**
     * @param one   the verdict: 1 (true) or 0.
     * @param resp3 whether RESP3 is in force.
     * @return the verdict's four bytes as one int.
     */
    static int verdict(final boolean one, final boolean resp3)
    {
        return resp3 ? (one ? TRUE : FALSE) : (one ? ONE : ZERO);
    }

    /** @param message an error reply, e.g. {@code ERR item exists}. */
    public void error(final String message)
    {
        place(new ErrorRedisMessage(message), false);
    }

    private void place(final RedisMessage message, final boolean closeAfter)
    {
        if (closing())
        {
            ReferenceCountUtil.release(message);
            return;
        }
        if (!queue.isEmpty())
        {
            queue.add(new Entry(message, closeAfter));
            return;
        }
        try
        {
            RespEncoding.write(message, buffer(INITIAL), resp3);
        }
        finally
        {
            ReferenceCountUtil.release(message);
        }
        closed = closeAfter;
    }

    /**
     * The reply of the elements about to be submitted, made of their verdicts in order: 1 (RESP3 true) for an
     * element streamed UNSEEN or found present, else 0 (false); an array of them when {@code array}.
     *
     * @param add   whether the elements are streamed (1 = UNSEEN) rather than looked up (1 = present).
     * @param count how many.
     * @param array whether the reply is an array (BF.MADD, BF.MEXISTS) rather than one value (BF.ADD, BF.EXISTS).
     */
    public void verdicts(final boolean add, final int count, final boolean array)
    {
        if (closing())
        {
            return; // the elements are still judged; their verdicts are dropped with the connection
        }
        if (!array)
        {
            queue.add(add ? ADD_ONE : PRESENT_ONE);
            return;
        }
        Entry entry = spare;
        if (entry != null)
        {
            spare = null;
            entry.reset(add, count);
        }
        else
        {
            entry = new Entry(Entry.MANY, add, count);
        }
        queue.add(entry);
    }

    /**
     * The elements of the last {@link #verdicts} reply from {@code judged} on were not judged: the filter refused a
     * write midway (its change log could not be written). BF.ADD's one verdict becomes the error; an array keeps the
     * verdicts of the elements judged and has the error in each later place, as RedisBloom answers the items of a
     * BF.MADD that a full filter refuses. Without it the reply waited for verdicts that never come, and every later
     * reply of the connection behind it.
     *
     * @param judged the verdicts delivered for the reply.
     * @param error  the error of the others, one line.
     */
    public void cutVerdicts(final int judged, final String error)
    {
        final Entry last = queue.peekLast();
        if (closing() || last == null || last.type != Entry.ONE && last.type != Entry.MANY)
        {
            return;
        }
        if (last.type == Entry.ONE)
        {
            queue.pollLast(); // its verdict never came
            error(error);
            return;
        }
        last.cut = judged;
        last.error = error;
    }

    /** @param count the next this many replies are one array (EXEC's): its header, written at its place. */
    public void group(final int count)
    {
        if (closing())
        {
            return;
        }
        if (queue.isEmpty())
        {
            RespEncoding.header(buffer(16), '*', count);
            return;
        }
        queue.add(new Entry(Entry.GROUP, false, count));
    }

    /** @param resp3 the protocol of the replies from here on in the order (HELLO). */
    public void protocol(final boolean resp3)
    {
        if (queue.isEmpty())
        {
            this.resp3 = resp3;
            return;
        }
        queue.add(new Entry(Entry.PROTOCOL, resp3, 0));
    }

    /**
     * Encodes every reply at the head of the order that is complete, taking verdicts as they complete them (and
     * part of an array whose verdicts are partly in).
     *
     * @param verdicts the connection's verdicts.
     * @return {@link Outcome#CLOSE} once a reply that closes the connection is encoded.
     */
    public Outcome drain(final Verdicts verdicts)
    {
        Entry e;
        while (!closed && (e = queue.peek()) != null)
        {
            switch (e.type)
            {
                case Entry.READY ->
                {
                    queue.poll();
                    final RedisMessage message = e.message;
                    e.message = null;
                    if (message != null) // null: the close after the replies before it (closeAfterQueued)
                    {
                        try
                        {
                            RespEncoding.write(message, buffer(INITIAL), resp3);
                        }
                        finally
                        {
                            ReferenceCountUtil.release(message);
                        }
                    }
                    closed = e.closeAfter;
                }
                case Entry.GROUP ->
                {
                    queue.poll();
                    RespEncoding.header(buffer(16), '*', e.count);
                }
                case Entry.PROTOCOL ->
                {
                    queue.poll();
                    resp3 = e.add;
                }
                case Entry.ONE ->
                {
                    if (verdicts.available() == 0)
                    {
                        return Outcome.OPEN;
                    }
                    queue.poll();
                    next(verdicts, e.add, buffer(Integer.BYTES));
                }
                default ->
                {
                    final int judged = e.cut >= 0 ? e.cut : e.count;
                    final int take = Math.min(verdicts.available(), judged - e.filled);
                    final ByteBuf b = buffer(16 + take * Integer.BYTES);
                    if (!e.started)
                    {
                        // at the head: its header goes out now, its verdicts as they come
                        RespEncoding.header(b, '*', e.count);
                        e.started = true;
                    }
                    for (int i = 0; i < take; i++)
                    {
                        next(verdicts, e.add, b);
                    }
                    e.filled += take;
                    if (e.filled < judged)
                    {
                        return Outcome.OPEN;
                    }
                    for (int i = judged; i < e.count; i++)
                    {
                        RespEncoding.write(new ErrorRedisMessage(e.error), b, resp3); // cutVerdicts
                    }
                    queue.poll();
                    spare = e;
                }
            }
        }
        return closed ? Outcome.CLOSE : Outcome.OPEN;
    }

    /**
     * Encodes the next verdict into {@code b}: 1 or 0 (RESP3 true or false), or the error in its place when the
     * element has none ({@link Verdicts#failed}: the pipeline could not judge it).
     */
    private void next(final Verdicts verdicts, final boolean add, final ByteBuf b)
    {
        final boolean duplicate = verdicts.next();
        final String failed = verdicts.failed();
        if (failed == null)
        {
            b.writeInt(verdict(duplicate != add, resp3));
        }
        else
        {
            RespEncoding.write(new ErrorRedisMessage(failed), b, resp3);
        }
    }

    /**
     * Hands what was encoded to the channel and flushes it, once the durability barrier has run.
     *
     * @return whether anything was written.
     */
    public boolean flush()
    {
        if (out == null)
        {
            return false;
        }
        final ByteBuf b = out;
        out = null;
        if (gate == null)
        {
            send(b, false);
        }
        else
        {
            gate.send(b, false);
        }
        return true;
    }

    /** Flushes what was encoded, then closes the connection once it is written (or at once when nothing was). */
    public void flushThenClose()
    {
        final ByteBuf b = out;
        out = null;
        if (gate == null)
        {
            send(b, true);
        }
        else
        {
            gate.send(b, true);
        }
    }

    /** Writes replies the gate let through. */
    private void send(final ByteBuf b, final boolean closeAfter)
    {
        if (b == null)
        {
            if (closeAfter)
            {
                ctx.close();
            }
            return;
        }
        if (closeAfter)
        {
            ctx.writeAndFlush(b).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.write(b, ctx.voidPromise());
        ctx.flush();
    }

    /** Drops every reply not yet written (the connection is closing). */
    public void drop()
    {
        closed = true;
        if (gate != null && !ctx.channel().isActive())
        {
            gate.close(); // what it holds would go nowhere (a closing reply still held goes out, then closes)
        }
        if (out != null)
        {
            out.release();
            out = null;
        }
        Entry e;
        while ((e = queue.poll()) != null)
        {
            if (e.message != null)
            {
                ReferenceCountUtil.release(e.message);
                e.message = null;
            }
        }
    }

    private ByteBuf buffer(final int bytes)
    {
        if (out == null)
        {
            out = ctx.alloc().directBuffer(Math.max(INITIAL, bytes));
        }
        out.ensureWritable(bytes);
        return out;
    }


    /** A place in the order whose reply cannot be written yet, or that changes how the later ones are. */
    private static final class Entry
    {
        /** A reply made now, written when it reaches the head. */
        static final byte READY = 0;
        /** One verdict: 1 or 0. */
        static final byte ONE = 1;
        /** An array of verdicts. */
        static final byte MANY = 2;
        /** EXEC's array header: the next {@link #count} replies are its elements. */
        static final byte GROUP = 3;
        /** HELLO's switch of protocol ({@link #add} is whether RESP3). */
        static final byte PROTOCOL = 4;

        final byte type;
        RedisMessage message;
        final boolean closeAfter;
        /** Whether 1 means UNSEEN (streamed) rather than present (looked up); for PROTOCOL, whether RESP3. */
        boolean add;
        int count;
        /** Verdicts of the array written so far. */
        int filled;
        /** Whether the array's header is written. */
        boolean started;
        /** Verdicts that come before the rest are errors ({@link #cutVerdicts}), or -1: all do. */
        int cut = -1;
        /** The error of the places from {@link #cut} on. */
        String error;

        Entry(final byte type, final boolean add, final int count)
        {
            this.type = type;
            this.add = add;
            this.count = count;
            this.closeAfter = false;
        }

        Entry(final RedisMessage message, final boolean closeAfter)
        {
            this.type = READY;
            this.message = message;
            this.closeAfter = closeAfter;
        }

        void reset(final boolean add, final int count)
        {
            this.add = add;
            this.count = count;
            this.filled = 0;
            this.started = false;
            this.cut = -1;
            this.error = null;
        }
    }
}
