package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.netty.util.ReferenceCountUtil;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

/**
 * A RESP connection's replies, written in command order as bytes into the connection's output buffer: the request
 * path's proxy (Aeron's {@code ClientProxy}; Garnet writes its replies straight into the send buffer the same way).
 * Every reply takes its place in the order when its command runs. A reply whose place is at the head is encoded at
 * once; one behind a reply still waiting for verdicts (through the pipeline) waits in a queue, and is encoded when
 * it reaches the head ({@link #drain}). {@link #flush} hands what was encoded to the channel in one buffer, once per
 * read, through the {@link DurabilityBarrier}'s gate: a reply that acknowledges a write ({@link #wrote}) leaves once
 * the write is as durable as {@code serve --fsync} promises.
 *
 * <p>The protocol is chosen here and only here: the reply types whose RESP differs between RESP2 and RESP3
 * ({@link ReplyTypes}: booleans, nulls, doubles, maps, verbatim strings) are written in the protocol in force at
 * the reply's place in the order. HELLO's switch takes its place in the order too ({@link #protocol}), so a reply
 * waiting for its verdicts is written in the protocol its command ran in. EXEC's array header is written when it
 * reaches the head ({@link #group}); the replies of its commands follow it in order as any others do.
 *
 * <p>A reply is written as one buffer with the others of its read, however many elements it has: the channel
 * counts about a hundred bytes of bookkeeping per buffer against the output limit, and an array written a buffer per
 * element (as Netty's encoder does) got a 700,000-item BF.MEXISTS closed without a reply. RESP2 replies are byte
 * for byte what Netty's {@code RedisEncoder} writes. Owned by the connection's event loop.
 */
final class ReplyWriter
{
    /** What {@link #drain} found. */
    enum Outcome
    {
        /** Some replies may still wait; the connection goes on. */
        OPEN,
        /** A reply that closes the connection (QUIT, a protocol error) was written: flush, then close. */
        CLOSE
    }

    /** The verdicts a connection's elements get, in submission order (its {@link VerdictRing}). */
    interface Verdicts
    {
        /** @return verdicts delivered and not yet taken. */
        int available();

        /** @return the next verdict, true for DUPLICATE (stream) or present (contains); only when available. */
        boolean next();
    }

    private static final int INITIAL = 256;
    /** {@code :0\r\n} and {@code :1\r\n} as ints, big-endian, so one verdict reply is one store. */
    private static final int ZERO = ':' << 24 | '0' << 16 | '\r' << 8 | '\n';
    private static final int ONE = ':' << 24 | '1' << 16 | '\r' << 8 | '\n';
    /** RESP3's {@code #t\r\n} and {@code #f\r\n}: four bytes too. */
    private static final int TRUE = '#' << 24 | 't' << 16 | '\r' << 8 | '\n';
    private static final int FALSE = '#' << 24 | 'f' << 16 | '\r' << 8 | '\n';
    private static final short CRLF = '\r' << 8 | '\n';
    private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);
    /** BF.ADD's and BF.EXISTS's one-verdict entries: immutable, shared. */
    private static final Entry ADD_ONE = new Entry(Entry.ONE, true, 1);
    private static final Entry PRESENT_ONE = new Entry(Entry.ONE, false, 1);

    private final DurabilityBarrier barrier;
    private final java.util.function.BooleanSupplier settled;
    /** Where the encoded replies go: at once, or after the sync of what they acknowledge. */
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
    ReplyWriter(final DurabilityBarrier barrier, final java.util.function.BooleanSupplier settled)
    {
        this.barrier = barrier;
        this.settled = settled;
    }

    /** @param ctx the connection's handler context, whose allocator and channel the replies use. */
    void attach(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
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
    void wrote(final io.ddf.engine.DuplicateFilter filter)
    {
        gate.wrote(filter);
    }

    /** @return bytes of replies encoded and held until what they acknowledge is synced. */
    long held()
    {
        return gate.held();
    }

    /** @return whether a reply that closes the connection has taken its place: no further command may run. */
    boolean closing()
    {
        return closed || !queue.isEmpty() && queue.peekLast().closeAfter;
    }

    /** @param message a reply ready now. */
    void ready(final RedisMessage message)
    {
        place(message, false);
    }

    /** @param message a reply after which the connection closes. */
    void readyThenClose(final RedisMessage message)
    {
        place(message, true);
    }

    /** @param message an error reply, e.g. {@code ERR item exists}. */
    void error(final String message)
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
            write(message, buffer(INITIAL));
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
    void verdicts(final boolean add, final int count, final boolean array)
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

    /** @param count the next this many replies are one array (EXEC's): its header, written at its place. */
    void group(final int count)
    {
        if (closing())
        {
            return;
        }
        if (queue.isEmpty())
        {
            header(buffer(16), '*', count);
            return;
        }
        queue.add(new Entry(Entry.GROUP, false, count));
    }

    /** @param resp3 the protocol of the replies from here on in the order (HELLO). */
    void protocol(final boolean resp3)
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
    Outcome drain(final Verdicts verdicts)
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
                    try
                    {
                        write(message, buffer(INITIAL));
                    }
                    finally
                    {
                        ReferenceCountUtil.release(message);
                    }
                    closed = e.closeAfter;
                }
                case Entry.GROUP ->
                {
                    queue.poll();
                    header(buffer(16), '*', e.count);
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
                    buffer(Integer.BYTES).writeInt(verdict(verdicts.next() != e.add));
                }
                default ->
                {
                    final int take = Math.min(verdicts.available(), e.count - e.filled);
                    final ByteBuf b = buffer(16 + take * Integer.BYTES);
                    if (!e.started)
                    {
                        // at the head: its header goes out now, its verdicts as they come
                        header(b, '*', e.count);
                        e.started = true;
                    }
                    for (int i = 0; i < take; i++)
                    {
                        b.writeInt(verdict(verdicts.next() != e.add));
                    }
                    e.filled += take;
                    if (e.filled < e.count)
                    {
                        return Outcome.OPEN;
                    }
                    queue.poll();
                    spare = e;
                }
            }
        }
        return closed ? Outcome.CLOSE : Outcome.OPEN;
    }

    /** @return whether replies are encoded and not yet handed to the channel. */
    boolean pending()
    {
        return out != null;
    }

    /**
     * Hands what was encoded to the channel and flushes it, once the durability barrier has run.
     *
     * @return whether anything was written.
     */
    boolean flush()
    {
        if (out == null)
        {
            return false;
        }
        final ByteBuf b = out;
        out = null;
        gate.send(b, false);
        return true;
    }

    /** Flushes what was encoded, then closes the connection once it is written (or at once when nothing was). */
    void flushThenClose()
    {
        final ByteBuf b = out;
        out = null;
        gate.send(b, true);
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
    void drop()
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

    private int verdict(final boolean one)
    {
        return resp3 ? (one ? TRUE : FALSE) : (one ? ONE : ZERO);
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

    /**
     * Writes one reply in the protocol in force.
     *
     * @param msg a reply.
     * @param b   gets its bytes.
     */
    private void write(final RedisMessage msg, final ByteBuf b)
    {
        if (msg instanceof SimpleStringRedisMessage simple)
        {
            line(b, '+', simple.content());
        }
        else if (msg instanceof ErrorRedisMessage error)
        {
            line(b, '-', error.content());
        }
        else if (msg instanceof IntegerRedisMessage integer)
        {
            b.writeByte(':');
            decimal(b, integer.value());
            b.writeShort(CRLF);
        }
        else if (msg instanceof FullBulkStringRedisMessage bulk)
        {
            if (bulk.isNull())
            {
                header(b, '$', -1);
            }
            else
            {
                final ByteBuf content = bulk.content();
                header(b, '$', content.readableBytes());
                b.writeBytes(content, content.readerIndex(), content.readableBytes());
                b.writeShort(CRLF);
            }
        }
        else if (msg instanceof ArrayRedisMessage array)
        {
            if (array.isNull())
            {
                header(b, '*', -1);
            }
            else
            {
                header(b, '*', array.children().size());
                for (final RedisMessage child : array.children())
                {
                    write(child, b);
                }
            }
        }
        else
        {
            writeTyped(msg, b);
        }
    }

    /** The types whose RESP depends on the protocol: the one place that decides. */
    private void writeTyped(final RedisMessage msg, final ByteBuf b)
    {
        if (msg instanceof ReplyTypes.Bool bool)
        {
            b.writeInt(verdict(bool.value()));
        }
        else if (msg == ReplyTypes.NIL)
        {
            if (resp3)
            {
                b.writeByte('_').writeShort(CRLF);
            }
            else
            {
                header(b, '$', -1);
            }
        }
        else if (msg == ReplyTypes.NIL_ARRAY)
        {
            if (resp3)
            {
                b.writeByte('_').writeShort(CRLF);
            }
            else
            {
                header(b, '*', -1);
            }
        }
        else if (msg instanceof ReplyTypes.Double number)
        {
            final String text = ReplyTypes.format(number.value());
            if (resp3)
            {
                line(b, ',', text);
            }
            else
            {
                bulk(b, "", text);
            }
        }
        else if (msg instanceof ReplyTypes.MapMessage map)
        {
            header(b, resp3 ? '%' : '*', resp3 ? map.keysAndValues().size() / 2 : map.keysAndValues().size());
            for (final RedisMessage child : map.keysAndValues())
            {
                write(child, b);
            }
        }
        else if (msg instanceof ReplyTypes.Verbatim verbatim)
        {
            if (resp3)
            {
                b.writeByte('=');
                decimal(b, ByteBufUtil.utf8Bytes(verbatim.text()) + 4);
                b.writeShort(CRLF);
                ByteBufUtil.writeAscii(b, verbatim.format());
                b.writeByte(':');
                ByteBufUtil.writeUtf8(b, verbatim.text());
                b.writeShort(CRLF);
            }
            else
            {
                bulk(b, "", verbatim.text());
            }
        }
        else
        {
            throw new EncoderException("no RESP encoding for " + msg.getClass().getSimpleName());
        }
    }

    private static void bulk(final ByteBuf b, final String prefix, final String text)
    {
        header(b, '$', ByteBufUtil.utf8Bytes(prefix) + ByteBufUtil.utf8Bytes(text));
        ByteBufUtil.writeUtf8(b, prefix);
        ByteBufUtil.writeUtf8(b, text);
        b.writeShort(CRLF);
    }

    private static void line(final ByteBuf b, final char type, final String text)
    {
        b.writeByte(type);
        ByteBufUtil.writeUtf8(b, text);
        b.writeShort(CRLF);
    }

    /** {@code type}, the length, CRLF: an array, map or bulk string's header. */
    private static void header(final ByteBuf b, final char type, final long length)
    {
        b.writeByte(type);
        decimal(b, length);
        b.writeShort(CRLF);
    }

    /** Writes a long in decimal without making a String. */
    static void decimal(final ByteBuf b, final long value)
    {
        if (value == Long.MIN_VALUE)
        {
            b.writeBytes(MIN_LONG);
            return;
        }
        long v = value;
        if (v < 0)
        {
            b.writeByte('-');
            v = -v;
        }
        long scale = 1;
        while (v / scale >= 10)
        {
            scale *= 10;
        }
        for (; scale > 0; scale /= 10)
        {
            b.writeByte((int)('0' + v / scale % 10));
        }
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
        }
    }
}
