package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ByteProcessor;
import io.netty.util.ReferenceCountUtil;

import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Reads requests (multibulk arrays of bulk strings, or inline lines) straight from the cumulated input into the
 * {@code ByteBuf[]} a {@link CommandTable} takes: one retained slice of the input per argument, no message object per
 * element. It replaced Netty's {@code RedisDecoder} and the three handlers behind it (a guard, a bulk string
 * aggregator, an array assembler), whose per-element messages, slices and lists were over half of the bytes
 * allocated per {@code BF.ADD}.
 *
 * <p>Nothing of a command is consumed or sliced until all of it has arrived: its arguments are remembered as offsets
 * from the reader index. So an unfinished command holds no buffer but the cumulation (released by
 * {@link ByteToMessageDecoder} when the connection closes: nothing can leak), and the cumulation is never shared
 * while it grows (a shared one would be copied whole on every read).
 *
 * <p>Limits, each refused with an error naming it (then the connection is closed and the rest of its input dropped):
 * at most {@code maxArgs} arguments of at most {@code maxBulk} bytes, together at most {@code maxRequest} bytes;
 * before AUTH (when a password is set) Redis's own limits for unauthenticated clients, {@value #UNAUTHENTICATED_ARGS}
 * arguments of at most {@value #UNAUTHENTICATED_BULK} bytes; a line (inline command or length) of at most
 * {@code maxInline} bytes; and the daemon's {@link InputBudget}: the declared size of every argument of a command
 * still unfinished when the input runs out is reserved there until the command completes. A command read whole in
 * one go is never held across reads, so it reserves nothing (the budget bounds what waiting clients hold).
 *
 * <p>Owned by one connection, on its event loop.
 */
final class RespDecoder extends ByteToMessageDecoder
{
    /** Redis's limit on the arguments of a command before AUTH. */
    static final int UNAUTHENTICATED_ARGS = 10;
    /** Redis's limit on an argument before AUTH. */
    static final int UNAUTHENTICATED_BULK = 16 * 1024;

    private static final int BETWEEN_COMMANDS = -1;
    private static final long NOT_A_NUMBER = Long.MIN_VALUE;
    /** A RESP length has at most this many digits here: larger ones are past every limit anyway. */
    private static final int MAX_DIGITS = 18;
    private static final String NOT_A_COMMAND = "Protocol error: expected a command (an array of bulk strings)";
    private static final String EXPECTED_BULK = "Protocol error: expected '$'";

    private final int maxInline;
    private final int maxArgs;
    private final int maxBulk;
    private final long maxRequest;
    private final BooleanSupplier authenticated;
    private final InputBudget budget;
    private final InputBudget.Account account;
    private ChannelHandlerContext ctx;

    // The command being read; every offset is from the input's reader index (nothing is consumed before it is whole).
    /** Arguments the command declares, or {@link #BETWEEN_COMMANDS}. */
    private int argc = BETWEEN_COMMANDS;
    /** Arguments whose bytes have all arrived. */
    private int argn;
    /** Where reading resumes. */
    private int scan;
    /** Length of the argument whose bytes are awaited, or -1 while its length line is awaited. */
    private int bulkLength = -1;
    /** Offset and length of every argument read, in pairs; grows as arguments come (the header is not trusted). */
    private int[] spans = new int[16];
    private long requestBytes;
    /** Declared sizes (plus overhead) of this command's arguments, and how much of that the budget holds. */
    private long declared;
    private long reserved;
    /** Where the search for the end of the current line resumes, so a line sent byte by byte is scanned once. */
    private int lineScanned;
    private boolean failed;
    /** Small commands' arguments, reused (allocation-free decoding). */
    private final ArgumentBuffers small = new ArgumentBuffers();

    /**
     * @param maxInline     longest line: an inline command, or a length.
     * @param maxArgs       most arguments of one command.
     * @param maxBulk       longest argument.
     * @param maxRequest    most bytes of arguments of one command.
     * @param budget        the daemon's bound on buffered input.
     * @param authenticated whether the client has authenticated (or needs not).
     */
    RespDecoder(final int maxInline, final int maxArgs, final int maxBulk, final long maxRequest,
        final InputBudget budget, final BooleanSupplier authenticated)
    {
        this.maxInline = maxInline;
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
    protected void handlerRemoved0(final ChannelHandlerContext ctx)
    {
        account.release();
        small.release();
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        try
        {
            super.channelInactive(ctx);
        }
        finally
        {
            account.release();
        }
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg) throws Exception
    {
        if (failed)
        {
            // refused: what follows is dropped unread, and no further read is asked for
            ReferenceCountUtil.release(msg);
            return;
        }
        super.channelRead(ctx, msg);
    }

    @Override
    protected void decode(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> out)
    {
        if (failed)
        {
            in.skipBytes(in.readableBytes());
            return;
        }
        String refusal = decodeOne(in, out);
        if (refusal == null && argc != BETWEEN_COMMANDS)
        {
            refusal = holdUnfinished();
        }
        if (refusal != null)
        {
            fail(ctx, in, out, refusal);
        }
    }

    /** Decodes at most one command (so one that changes the limits, AUTH, runs before the next is read). */
    private String decodeOne(final ByteBuf in, final List<Object> out)
    {
        if (argc == BETWEEN_COMMANDS)
        {
            if (!in.isReadable())
            {
                return null;
            }
            final byte first = in.getByte(in.readerIndex());
            if (first != '*')
            {
                return first == '+' || first == '-' || first == ':' || first == '$' ? NOT_A_COMMAND :
                    inline(in, out);
            }
            final String refusal = header(in);
            if (refusal != null || argc == BETWEEN_COMMANDS)
            {
                return refusal;
            }
        }
        final int readable = in.readableBytes();
        while (argn < argc)
        {
            if (bulkLength < 0)
            {
                if (readable <= scan)
                {
                    return null;
                }
                final byte type = in.getByte(in.readerIndex() + scan);
                if (type != '$')
                {
                    return type == '*' ? "Protocol error: expected '$', got '*'" : EXPECTED_BULK;
                }
                final int lf = endOfLine(in, scan + 1);
                if ((lf < 0 ? readable : lf) - scan > maxInline)
                {
                    return "Protocol error: too big bulk count string (more than " + maxInline +
                        " bytes)";
                }
                if (lf < 0)
                {
                    return null;
                }
                final long length = number(in, scan + 1, lf);
                if (length == -1)
                {
                    // a null bulk string is no argument
                    return EXPECTED_BULK;
                }
                if (length < 0)
                {
                    return "Protocol error: invalid bulk length";
                }
                final String refusal = admit(length);
                if (refusal != null)
                {
                    return refusal;
                }
                bulkLength = (int)length;
                scan = lf + 1;
            }
            if ((long)readable - scan < bulkLength + 2L)
            {
                return null;
            }
            final int end = in.readerIndex() + scan + bulkLength;
            if (in.getByte(end) != '\r' || in.getByte(end + 1) != '\n')
            {
                return "Protocol error: expected CRLF after a bulk string";
            }
            if (2 * argn + 2 > spans.length)
            {
                spans = Arrays.copyOf(spans, Math.max(2 * argn + 2, 2 * spans.length));
            }
            spans[2 * argn] = scan;
            spans[2 * argn + 1] = bulkLength;
            argn++;
            scan += bulkLength + 2;
            bulkLength = -1;
        }
        final int base = in.readerIndex();
        ByteBuf[] args = small.copy(in, base, spans, argc);
        if (args == null)
        {
            args = new ByteBuf[argc];
            for (int i = 0; i < args.length; i++)
            {
                args[i] = in.retainedSlice(base + spans[2 * i], spans[2 * i + 1]);
            }
        }
        in.skipBytes(scan);
        endCommand();
        out.add(args);
        return null;
    }

    /** {@code *N\r\n}: starts a command, or skips an empty one. */
    private String header(final ByteBuf in)
    {
        final int lf = endOfLine(in, 1);
        if ((lf < 0 ? in.readableBytes() : lf) > maxInline)
        {
            return "Protocol error: too big multibulk count string (more than " + maxInline +
                " bytes)";
        }
        if (lf < 0)
        {
            return null;
        }
        final long count = number(in, 1, lf);
        if (count < -1)
        {
            return "Protocol error: invalid multibulk length";
        }
        if (count <= 0)
        {
            // *0 and *-1 are no command (Redis skips them too)
            in.skipBytes(lf + 1);
            return null;
        }
        if (!authenticated.getAsBoolean() && count > UNAUTHENTICATED_ARGS)
        {
            return "Protocol error: unauthenticated multibulk length (at most " + UNAUTHENTICATED_ARGS +
                " arguments before AUTH)";
        }
        if (count > maxArgs)
        {
            return "Protocol error: invalid multibulk length (more than " + maxArgs + " arguments)";
        }
        argc = (int)count;
        argn = 0;
        scan = lf + 1;
        bulkLength = -1;
        requestBytes = 0;
        declared = 0;
        return null;
    }

    /** A line of words separated by blanks (telnet, redis-cli's inline mode): one argument per word. */
    private String inline(final ByteBuf in, final List<Object> out)
    {
        final int lf = endOfLine(in, 0);
        if ((lf < 0 ? in.readableBytes() : lf) > maxInline)
        {
            // a line's length is known before its end arrives once it passes the limit
            return "Protocol error: too big inline request (more than " + maxInline + " bytes)";
        }
        if (lf < 0)
        {
            return null;
        }
        final int base = in.readerIndex();
        int words = 0;
        for (int i = 0; i < lf; i++)
        {
            if (!blank(in.getByte(base + i)) && (i == 0 || blank(in.getByte(base + i - 1))))
            {
                words++;
            }
        }
        if (words > 0)
        {
            final ByteBuf[] args = new ByteBuf[words];
            int w = 0;
            int start = -1;
            for (int i = 0; i <= lf; i++)
            {
                final boolean edge = i == lf || blank(in.getByte(base + i));
                if (edge && start >= 0)
                {
                    args[w++] = in.retainedSlice(base + start, i - start);
                    start = -1;
                }
                else if (!edge && start < 0)
                {
                    start = i;
                }
            }
            out.add(args);
        }
        in.skipBytes(lf + 1);
        lineScanned = 0;
        return null;
    }

    /** Java's {@code \s}: what separated an inline command's words before. */
    private static boolean blank(final byte b)
    {
        return b == ' ' || b == '\t' || b == '\n' || b == 0x0B || b == '\f' || b == '\r';
    }

    /** @return null when an argument of this length may be read, else the error naming the limit it breaks. */
    private String admit(final long length)
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
        declared += length + InputBudget.ARGUMENT_OVERHEAD;
        return null;
    }

    /** The input ran out mid-command: the budget must hold what the command declared so far. */
    private String holdUnfinished()
    {
        if (declared > reserved)
        {
            if (!account.reserve(declared - reserved))
            {
                reserved = 0;
                return "command input over the daemon's limit of " + budget.limit() + " bytes buffered across " +
                    "all connections (--max-input-bytes); this connection held the most";
            }
            reserved = declared;
        }
        return null;
    }

    private void endCommand()
    {
        argc = BETWEEN_COMMANDS;
        argn = 0;
        scan = 0;
        bulkLength = -1;
        lineScanned = 0;
        if (reserved != 0)
        {
            // handed on (run, or copied to wait its turn): its input is no longer held
            reserved = 0;
            account.release();
        }
    }

    /**
     * @param from offset where the line's content starts.
     * @return the offset of the {@code \n} ending the line (checked to follow a {@code \r} for lengths), or -1.
     */
    private int endOfLine(final ByteBuf in, final int from)
    {
        final int start = Math.max(from, lineScanned);
        final int readable = in.readableBytes();
        if (start >= readable)
        {
            return -1;
        }
        final int at = in.forEachByte(in.readerIndex() + start, readable - start, ByteProcessor.FIND_LF);
        if (at < 0)
        {
            lineScanned = readable;
            return -1;
        }
        lineScanned = 0;
        return at - in.readerIndex();
    }

    /**
     * @param from offset of the first digit (or minus sign).
     * @param lf   offset of the line's {@code \n}, which must follow a {@code \r}.
     * @return the length on the line, or {@link #NOT_A_NUMBER} (below every valid value).
     */
    private static long number(final ByteBuf in, final int from, final int lf)
    {
        final int base = in.readerIndex();
        final int end = lf - 1;
        if (end < from || in.getByte(base + end) != '\r')
        {
            return NOT_A_NUMBER;
        }
        int i = from;
        final boolean negative = in.getByte(base + i) == '-';
        if (negative)
        {
            i++;
        }
        if (i == end || end - i > MAX_DIGITS)
        {
            return NOT_A_NUMBER;
        }
        long value = 0;
        for (; i < end; i++)
        {
            final byte b = in.getByte(base + i);
            if (b < '0' || b > '9')
            {
                return NOT_A_NUMBER;
            }
            value = value * 10 + (b - '0');
        }
        return negative ? -value : value;
    }

    private void fail(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> out, final String message)
    {
        failed = true;
        reserved = 0;
        account.release();
        in.skipBytes(in.readableBytes());
        ctx.channel().config().setAutoRead(false);
        out.add(new ProtocolError(message));
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
                    failed = true;
                    reserved = 0;
                    final ByteBuf held = internalBuffer();
                    held.skipBytes(held.readableBytes());
                    context.channel().config().setAutoRead(false);
                    context.fireChannelRead(new ProtocolError(message));
                    // not within a read: ask for the error reply to be written now
                    context.fireChannelReadComplete();
                }
            });
        }
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
