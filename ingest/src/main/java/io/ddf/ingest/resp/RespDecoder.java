package io.ddf.ingest.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ByteProcessor;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The request path's adapter: the connection pulls the commands of its input from it one at a time
 * ({@link #next}: the next complete command's arguments, or null when none is whole yet), and runs each before it
 * pulls the next, so a command that changes the limits (AUTH) or makes the connection wait runs before the next is
 * read; the commands not pulled yet stay in the input, undecoded. The decoder calls nothing of the connection; it
 * is owned by one, on its event loop. Requests (multibulk arrays of bulk strings, or inline lines) are read straight
 * into the {@code ByteBuf[]} a command takes, with no message object per element (Netty's {@code RedisDecoder} and
 * the message per command were over half of the bytes allocated per {@code BF.ADD}).
 *
 * <p>Nothing of a command is consumed or sliced until all of it has arrived: its arguments are remembered as offsets
 * from the reader index. So an unfinished command holds no buffer but the input, released by {@link #close} when
 * the connection closes (nothing can leak), and the input is never shared while it grows (a shared one would be
 * copied whole on every read).
 *
 * <p>A command of at most {@value #MAX_COPIED_ARGS} arguments of at most {@value #MAX_COPIED_BYTES} bytes each
 * (BF.ADD, BF.EXISTS, BF.MADD of a few hundred items) is copied into buffers reused from command to command, so that
 * decoding it allocates nothing: the allocation profile of {@code BF.ADD -P 16} had a slice per argument at 53 % of
 * the bytes allocated per command and the argument array at 11 %, and a pooled slice per item cost BF.MADD two
 * atomic updates of the input's count each. A larger command's arguments are retained slices of the input. Reuse is
 * safe because the receiver releases the arguments when the command returns and copies (a parked command, MULTI's
 * queue, a retry) or retains (ECHO's reply) what must outlive it: each buffer is handed over retained once, so it is
 * back to our one reference at the next command, and one still retained then is left to its holder and replaced.
 *
 * <p>Limits, each refused with an error naming it ({@link #refusal}; the input is dropped and nothing more is
 * decoded: the connection answers, then closes): at most {@code maxArgs} arguments of at most {@code maxBulk} bytes
 * (or, past it, what the command's {@link LargeArguments} allows), together at most {@code maxRequest} bytes; before
 * AUTH (when a password is set) Redis's own limits for unauthenticated clients, {@value #UNAUTHENTICATED_ARGS}
 * arguments of at most {@value #UNAUTHENTICATED_BULK} bytes; a line (inline command or length) of at most
 * {@code maxInline} bytes; and the daemon's {@link InputBudget}: the declared size of every argument of a command
 * still unfinished when the input runs out is reserved there until the command completes. A command read whole in
 * one go is never held across reads, so it reserves nothing (the budget bounds what waiting clients hold).
 */
public final class RespDecoder
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
    /** What {@link #decodeOne} returns for input it consumed that is no command (an empty line, {@code *0}). */
    private static final ByteBuf[] SKIPPED = new ByteBuf[0];
    /** Most arguments of a command copied into reused buffers (a connection holds at most this many, ~30 KB). */
    static final int MAX_COPIED_ARGS = 256;
    /** Longest argument copied into a reused buffer. */
    static final int MAX_COPIED_BYTES = 64;
    /** Argument counts up to this have a reused array each; a larger command reuses the one array of its size. */
    private static final int SMALL_ARGS = 8;

    private final int maxInline;
    private final int maxArgs;
    private final int maxBulk;
    private final long maxRequest;
    private final LargeArguments large;
    private final InputBudget budget;
    private final InputBudget.Account account;
    /** What was read and not yet consumed, or null. */
    private ByteBuf input;

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
    /** Why {@link #decodeOne} returned no command, when it refused the input. */
    private String pending;
    /** Why the input was refused, until the connection takes it ({@link #refusal}). */
    private String refusal;
    /** Whether the client has authenticated, for the command being read ({@link #next}'s argument). */
    private boolean authenticated;
    /** The reused arrays of small commands, by argument count, and the last larger one's. */
    private final ByteBuf[][] arrays = new ByteBuf[SMALL_ARGS + 1][];
    private ByteBuf[] largeArray;
    /** The reused argument buffers (made on first use: a connection sending small commands holds small ones). */
    private ByteBuf[] copies = new ByteBuf[SMALL_ARGS];

    /**
     * @param maxInline longest line: an inline command, or a length.
     * @param maxArgs   most arguments of one command.
     * @param maxBulk   longest argument ({@code --max-bulk-bytes}).
     * @param maxRequest most bytes of arguments of one command.
     * @param large     which commands take longer arguments.
     * @param budget    the daemon's bound on buffered input.
     * @param evicted   told, from any thread, when the budget chose this connection to give way (with the error).
     */
    public RespDecoder(final int maxInline, final int maxArgs, final int maxBulk, final long maxRequest,
        final LargeArguments large, final InputBudget budget, final Consumer<String> evicted)
    {
        this.maxInline = maxInline;
        this.maxArgs = maxArgs;
        this.maxBulk = maxBulk;
        this.maxRequest = maxRequest;
        this.large = large;
        this.budget = budget;
        this.account = budget.open(evicted);
    }

    /** @return whether the input was refused: nothing more is decoded, what comes is dropped. */
    public boolean failed()
    {
        return failed;
    }

    /**
     * Takes what the connection read (released here; dropped unread once the input was refused).
     *
     * @param alloc the connection's allocator (for the input when reads must be joined).
     * @param read  the bytes read.
     */
    public void read(final ByteBufAllocator alloc, final ByteBuf read)
    {
        if (failed)
        {
            read.release();
            return;
        }
        input = ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(alloc, input == null ? Unpooled.EMPTY_BUFFER : input,
            read);
    }

    /**
     * Cuts the next complete command from the input.
     *
     * @param authenticated whether the client has authenticated (or needs not): the limits before AUTH are Redis's.
     * @return its name and arguments, each retained once for the caller, who releases them when the command returns
     *     (copy to keep); null when no command is whole yet, or when the input broke a limit or the protocol
     *     ({@link #refusal} then says why).
     */
    public ByteBuf[] next(final boolean authenticated)
    {
        final ByteBuf in = input;
        if (in == null || failed)
        {
            return null;
        }
        this.authenticated = authenticated;
        while (in.isReadable())
        {
            final ByteBuf[] args = decodeOne(in);
            if (args == SKIPPED)
            {
                continue;
            }
            if (args != null)
            {
                if (!in.isReadable())
                {
                    in.release(); // the arguments are copies or retained slices
                    input = null;
                }
                return args;
            }
            String refused = pending;
            pending = null;
            if (refused == null && argc != BETWEEN_COMMANDS)
            {
                refused = holdUnfinished();
            }
            if (refused != null)
            {
                fail();
                refusal = refused;
                return null;
            }
            break; // the rest has not arrived
        }
        if (!in.isReadable())
        {
            in.release();
            input = null;
        }
        else if (in.refCnt() == 1)
        {
            // not while a reply still holds a slice of it (ECHO of a large argument), whose bytes would move
            in.discardSomeReadBytes();
        }
        return null;
    }

    /**
     * @return why the input was refused (the error, without the {@code ERR} code), once; then null. The connection
     *     answers with it, then closes.
     */
    public String refusal()
    {
        final String message = refusal;
        refusal = null;
        return message;
    }

    /**
     * Decodes at most one command (so one that changes the limits, AUTH, runs before the next is read).
     *
     * @return its arguments; {@link #SKIPPED} for input consumed that is no command; null when it has not all
     *     arrived or was refused ({@link #pending} says why).
     */
    private ByteBuf[] decodeOne(final ByteBuf in)
    {
        if (argc == BETWEEN_COMMANDS)
        {
            final byte first = in.getByte(in.readerIndex());
            if (first != '*')
            {
                if (first == '+' || first == '-' || first == ':' || first == '$')
                {
                    pending = NOT_A_COMMAND;
                    return null;
                }
                return inline(in);
            }
            final int before = in.readerIndex();
            pending = header(in);
            if (pending != null || argc == BETWEEN_COMMANDS)
            {
                return pending == null && in.readerIndex() != before ? SKIPPED : null;
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
                    pending = type == '*' ? "Protocol error: expected '$', got '*'" : EXPECTED_BULK;
                    return null;
                }
                final int lf = endOfLine(in, scan + 1);
                if ((lf < 0 ? readable : lf) - scan > maxInline)
                {
                    pending = "Protocol error: too big bulk count string (more than " + maxInline + " bytes)";
                    return null;
                }
                if (lf < 0)
                {
                    return null;
                }
                final long length = number(in, scan + 1, lf);
                if (length == -1)
                {
                    // a null bulk string is no argument
                    pending = EXPECTED_BULK;
                    return null;
                }
                if (length < 0)
                {
                    pending = "Protocol error: invalid bulk length";
                    return null;
                }
                pending = admit(in, length);
                if (pending != null)
                {
                    return null;
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
                pending = "Protocol error: expected CRLF after a bulk string";
                return null;
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
        ByteBuf[] args = copy(in, base);
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
        return args;
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
        if (!authenticated && count > UNAUTHENTICATED_ARGS)
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

    /**
     * A line of words separated by blanks (telnet, redis-cli's inline mode): one argument per word.
     *
     * @return the command; {@link #SKIPPED} for a blank line; null when the line has not all arrived or is too long
     *     ({@link #pending}).
     */
    private ByteBuf[] inline(final ByteBuf in)
    {
        final int lf = endOfLine(in, 0);
        if ((lf < 0 ? in.readableBytes() : lf) > maxInline)
        {
            // a line's length is known before its end arrives once it passes the limit
            pending = "Protocol error: too big inline request (more than " + maxInline + " bytes)";
            return null;
        }
        if (lf < 0)
        {
            return null;
        }
        final ByteBuf[] words = InlineRequest.words(in, in.readerIndex(), lf);
        in.skipBytes(lf + 1);
        lineScanned = 0;
        return words == null ? SKIPPED : words;
    }

    /**
     * @return the arguments of the command read ({@link #spans}) in reused buffers, each retained once for the
     *     receiver; null when it has too many or too long ones: the caller slices it.
     */
    private ByteBuf[] copy(final ByteBuf in, final int base)
    {
        if (argc > MAX_COPIED_ARGS)
        {
            return null;
        }
        for (int i = 0; i < argc; i++)
        {
            if (spans[2 * i + 1] > MAX_COPIED_BYTES)
            {
                return null;
            }
        }
        ByteBuf[] args = argc <= SMALL_ARGS ? arrays[argc] : largeArray;
        if (args == null || args.length != argc || !released(args))
        {
            // a receiver that keeps an array (a test's queue) gets a new one meanwhile
            args = new ByteBuf[argc];
            if (argc <= SMALL_ARGS)
            {
                arrays[argc] = args;
            }
            else
            {
                largeArray = args;
            }
        }
        if (argc > copies.length)
        {
            copies = Arrays.copyOf(copies, Math.max(argc, 2 * copies.length));
        }
        for (int i = 0; i < argc; i++)
        {
            ByteBuf buffer = copies[i];
            if (buffer == null || buffer.refCnt() != 1)
            {
                if (buffer != null)
                {
                    buffer.release(); // our reference; whoever retained it keeps it alive
                }
                buffer = Unpooled.buffer(MAX_COPIED_BYTES, MAX_COPIED_BYTES);
                copies[i] = buffer;
            }
            buffer.clear();
            in.getBytes(base + spans[2 * i], buffer, spans[2 * i + 1]);
            args[i] = buffer.retain();
        }
        return args;
    }

    /** @return whether the array's receiver is done with it: it holds our buffers, each back to our one reference. */
    private boolean released(final ByteBuf[] args)
    {
        for (int i = 0; i < args.length; i++)
        {
            if (args[i] != copies[i] || copies[i].refCnt() != 1)
            {
                return false;
            }
        }
        return true;
    }

    /** @return null when an argument of this length may be read, else the error naming the limit it breaks. */
    private String admit(final ByteBuf in, final long length)
    {
        final boolean before = !authenticated;
        final int bulkLimit = before ? Math.min(maxBulk, UNAUTHENTICATED_BULK) : maxBulk;
        if (length > bulkLimit && (before || argn == 0 ||
            length > large.limit(in, in.readerIndex() + spans[0], spans[1])))
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

    /** Refuses the input: nothing more is decoded, what is held is dropped, and the budget is given back. */
    public void fail()
    {
        failed = true;
        reserved = 0;
        account.release();
        if (input != null)
        {
            input.release();
            input = null;
        }
    }

    /** Releases the input held, the reused buffers and the budget's account (the connection has closed). */
    public void close()
    {
        fail();
        for (int i = 0; i < copies.length; i++)
        {
            if (copies[i] != null)
            {
                copies[i].release();
                copies[i] = null;
            }
        }
    }
}
