package io.ddf.ingest.resp;

import io.ddf.persistence.testing.TestSeed;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The request decoder: what it reads however the input is split (against a plain reference parser), the limits it
 * enforces, and that nothing it was given stays referenced.
 */
class RespDecoderTest
{
    private static final int INLINE = 64;
    private static final int ARGS = 6;
    private static final int BULK = 3000;
    private static final long REQUEST = 5000;

    /** A decoder and a connection that pulls every command from it as it reads, and records them as text. */
    private static final class Harness
    {
        final RespDecoder decoder;
        final boolean authenticated;
        final List<String> out = new ArrayList<>();

        Harness(final int maxArgs, final int maxBulk, final long maxRequest, final InputBudget budget,
            final boolean authenticated)
        {
            this(maxArgs, maxBulk, maxRequest, LargeArguments.NONE, budget, authenticated);
        }

        Harness(final int maxArgs, final int maxBulk, final long maxRequest, final LargeArguments large,
            final InputBudget budget, final boolean authenticated)
        {
            this.authenticated = authenticated;
            // in the daemon the connection is told on its event loop; here at once
            this.decoder = new RespDecoder(INLINE, maxArgs, maxBulk, maxRequest, large, budget, message ->
                {
                    decoder().fail();
                    out.add("ERR " + message);
                });
        }

        private RespDecoder decoder()
        {
            return decoder;
        }

        void write(final ByteBuf piece)
        {
            decoder.read(ByteBufAllocator.DEFAULT, piece);
            ByteBuf[] args;
            while ((args = decoder.next(authenticated)) != null)
            {
                final List<String> words = new ArrayList<>();
                for (final ByteBuf arg : args)
                {
                    words.add(arg.toString(StandardCharsets.ISO_8859_1));
                    arg.release();
                }
                out.add(words.toString());
            }
            final String refusal = decoder.refusal();
            if (refusal != null)
            {
                out.add("ERR " + refusal);
            }
        }
    }

    private static Harness channel(final InputBudget budget, final boolean authenticated)
    {
        return new Harness(ARGS, BULK, REQUEST, budget, authenticated);
    }

    private static Harness channel()
    {
        return channel(new InputBudget(Long.MAX_VALUE), true);
    }

    /** Feeds the bytes in pieces cut at the given points; returns what came out, as text, every buffer released. */
    private static List<String> read(final Harness channel, final byte[] bytes, final int[] cuts)
    {
        final List<ByteBuf> given = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= cuts.length; i++)
        {
            final int to = i < cuts.length ? cuts[i] : bytes.length;
            final ByteBuf piece = Unpooled.directBuffer(to - from).writeBytes(bytes, from, to - from);
            given.add(piece);
            channel.write(piece);
            from = to;
        }
        final List<String> out = drain(channel);
        channel.decoder.close();
        for (final ByteBuf piece : given)
        {
            assertEquals(0, piece.refCnt(), "an input buffer is still referenced");
        }
        return out;
    }

    private static List<String> drain(final Harness channel)
    {
        final List<String> out = new ArrayList<>(channel.out);
        channel.out.clear();
        return out;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void readsWhatTheReferenceParserReadsHoweverTheInputIsSplit()
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        int errors = 0;
        int commands = 0;
        for (int round = 0; round < 2000; round++)
        {
            final byte[] bytes = bytes(stream(random));
            final int[] cuts = random.ints(random.nextInt(8), 0, bytes.length + 1).sorted().toArray();
            final List<String> expected = ReferenceParser.parse(bytes, INLINE, ARGS, BULK, REQUEST);
            final List<String> got = read(channel(), bytes, cuts);
            assertEquals(expected, got, "seed " + seed + ", round " + round + ", input " +
                new String(bytes, StandardCharsets.ISO_8859_1).replace("\r", "\\r").replace("\n", "\\n") +
                ", cuts " + java.util.Arrays.toString(cuts));
            errors += !got.isEmpty() && got.get(got.size() - 1).startsWith("ERR") ? 1 : 0;
            commands += got.size();
        }
        // the generator must exercise both sides (seed-independent bounds: a fifth of the rounds end in an error)
        assertTrue(errors > 200 && errors < 1800 && commands > 2000, errors + " errors, " + commands + " outputs");
    }

    /** Random requests, valid mostly, with some damage or limit breach thrown in. */
    private static String stream(final Random random)
    {
        final StringBuilder wire = new StringBuilder();
        final int n = 1 + random.nextInt(6);
        for (int c = 0; c < n; c++)
        {
            switch (random.nextInt(14))
            {
                case 0 -> wire.append(random.nextBoolean() ? " PING  " : "ECHO\t").append(random.nextInt(100))
                    .append(random.nextBoolean() ? "\r\n" : "\n");
                case 1 -> wire.append(random.nextBoolean() ? "*0\r\n" : "*-1\r\n");
                case 2 -> wire.append("*2\r\n$4\r\nECHO\r\n$0\r\n\r\n");
                case 3 -> wire.append(damage(random));
                case 4 -> wire.append("\r\n");
                default ->
                {
                    final int args = 1 + random.nextInt(random.nextInt(20) == 0 ? ARGS + 2 : ARGS);
                    wire.append('*').append(args).append("\r\n");
                    for (int a = 0; a < args; a++)
                    {
                        final StringBuilder arg = new StringBuilder();
                        final int length = random.nextInt(6) == 0 ? random.nextInt(BULK + 50) : random.nextInt(12);
                        for (int i = 0; i < length; i++)
                        {
                            arg.append((char)random.nextInt(256));
                        }
                        wire.append('$').append(arg.length()).append("\r\n").append(arg).append("\r\n");
                    }
                }
            }
        }
        return wire.toString();
    }

    private static String damage(final Random random)
    {
        return switch (random.nextInt(13))
        {
            case 0 -> "*1\r\n:5\r\n";
            case 1 -> "*2\r\n$4\r\nECHO\r\n$-1\r\n";
            case 2 -> "*1\r\n*1\r\n$1\r\nx\r\n";
            case 3 -> "*abc\r\n";
            case 4 -> "*2\n$4\r\nECHO\r\n$1\r\nx\r\n";
            case 5 -> "*1\r\n$3\r\nabcd\r\n";
            case 6 -> "*1\r\n$-7\r\n";
            case 7 -> "+OK\r\n";
            case 8 -> "x".repeat(INLINE + random.nextInt(3) - 1) + "\r\n";
            case 9 -> "*" + "0".repeat(INLINE) + "1\r\n";
            case 10 -> "*1\r\n$" + "0".repeat(INLINE) + "1\r\nx\r\n";
            case 11 -> "*1\r\n$99999999999999999999\r\n";
            default -> "*-2\r\n";
        };
    }

    @Test
    void anUnfinishedCommandHoldsNothingOnceTheConnectionCloses()
    {
        final Harness channel = channel();
        final ByteBuf input = Unpooled.directBuffer(64).writeBytes(bytes("*3\r\n$6\r\nBF.ADD\r\n$1\r\nk\r\n$5\r\nab"));
        channel.write(input);
        assertEquals(List.of(), drain(channel), "nothing comes out of an unfinished command");
        channel.decoder.close();
        assertEquals(0, input.refCnt());
    }

    @Test
    void aFinishedCommandComesOutWholeAsSlicesOfTheInput()
    {
        final Harness channel = channel();
        channel.write(Unpooled.copiedBuffer(bytes("*2\r\n$4\r\nPING\r\n$1")));
        assertEquals(List.of(), drain(channel));
        channel.write(Unpooled.copiedBuffer(bytes("\r\nx\r\n")));
        assertEquals(List.of("[PING, x]"), drain(channel));
        channel.decoder.close();
    }

    /**
     * The connection pulls one command at a time: those it has not pulled (while one waits) stay in the input,
     * undecoded, in order, and "need more" is null with no refusal.
     */
    @Test
    void commandsWaitUndecodedUntilPulled()
    {
        final ByteBuf input = Unpooled.directBuffer(64).writeBytes(bytes("*1\r\n$1\r\na\r\n*1\r\n$1\r\nb\r\n" +
            "c\r\n*1\r\n$1\r\nd"));
        final RespDecoder decoder = new RespDecoder(INLINE, ARGS, BULK, REQUEST, LargeArguments.NONE,
            new InputBudget(Long.MAX_VALUE), m -> { });
        decoder.read(ByteBufAllocator.DEFAULT, input);
        assertEquals("a", pull(decoder));
        assertEquals("b", pull(decoder));
        assertEquals("c", pull(decoder), "an inline command");
        assertNull(decoder.next(true), "d has not all arrived");
        assertNull(decoder.refusal());
        assertFalse(decoder.failed());
        decoder.read(ByteBufAllocator.DEFAULT, Unpooled.copiedBuffer(bytes("\r\n")));
        assertEquals("d", pull(decoder));
        assertEquals(0, input.refCnt(), "the input is released once every command in it was pulled");
        assertNull(decoder.next(true));
        decoder.close();
    }

    /** @return the name of the next command, its arguments released. */
    private static String pull(final RespDecoder decoder)
    {
        final ByteBuf[] args = decoder.next(true);
        final String name = args[0].toString(StandardCharsets.US_ASCII);
        for (final ByteBuf arg : args)
        {
            arg.release();
        }
        return name;
    }

    /** A refused input: null, the error once, then nothing more is decoded and what comes is dropped. */
    @Test
    void aRefusalIsSaidOnceAndEndsTheDecoding()
    {
        final RespDecoder decoder = new RespDecoder(INLINE, ARGS, BULK, REQUEST, LargeArguments.NONE,
            new InputBudget(Long.MAX_VALUE), m -> { });
        decoder.read(ByteBufAllocator.DEFAULT, Unpooled.copiedBuffer(bytes("*1\r\n$1\r\na\r\n+OK\r\n")));
        assertEquals("a", pull(decoder));
        assertNull(decoder.next(true));
        assertEquals("Protocol error: expected a command (an array of bulk strings)", decoder.refusal());
        assertNull(decoder.refusal());
        assertTrue(decoder.failed());
        final ByteBuf later = Unpooled.copiedBuffer(bytes("*1\r\n$1\r\nb\r\n"));
        decoder.read(ByteBufAllocator.DEFAULT, later);
        assertEquals(0, later.refCnt(), "dropped unread");
        assertNull(decoder.next(true));
        decoder.close();
    }

    /**
     * Small commands' arguments are copies in reused buffers: reused only once the receiver released them, never
     * while it holds them (a queued command); the input is not retained by them.
     */
    @Test
    void reusesOnlyWhatItsReceiverReleased()
    {
        final RespDecoder decoder = new RespDecoder(INLINE, ARGS, BULK, REQUEST, LargeArguments.NONE,
            new InputBudget(Long.MAX_VALUE), m -> { });
        final String add = "*3\r\n$6\r\nBF.ADD\r\n$3\r\nkey\r\n$4\r\nitem\r\n";
        decoder.read(ByteBufAllocator.DEFAULT, Unpooled.copiedBuffer(bytes(add.repeat(3))));
        final ByteBuf[] first = decoder.next(true);
        assertEquals("item", first[2].toString(StandardCharsets.US_ASCII));
        // not released yet (a receiver that queues): the next command gets its own array and buffers
        final ByteBuf[] second = decoder.next(true);
        assertNotSame(first, second);
        assertNotSame(first[0], second[0]);
        assertEquals("BF.ADD", first[0].toString(StandardCharsets.US_ASCII));
        release(second);
        final ByteBuf[] third = decoder.next(true);
        assertSame(second, third, "released: the array and buffers are reused");
        assertSame(second[1], third[1]);
        for (final ByteBuf arg : first)
        {
            assertEquals(1, arg.refCnt(), "the first receiver's buffers are its own now");
        }
        release(first);
        release(third);
        decoder.close();
        assertEquals(0, third[0].refCnt(), "closing releases the reused buffers");
    }

    /** BF.MADD of 100 items: copied too, its buffers and array reused once released; longer arguments are slices. */
    @Test
    void aLargeCommandIsCopiedAndALongArgumentSliced()
    {
        final RespDecoder decoder = new RespDecoder(INLINE, 200, BULK, REQUEST, LargeArguments.NONE,
            new InputBudget(Long.MAX_VALUE), m -> { });
        final List<String> words = new ArrayList<>(List.of("BF.MADD", "k"));
        for (int i = 2; i < 102; i++)
        {
            words.add("item" + i);
        }
        final ByteBuf input = Unpooled.directBuffer().writeBytes(bytes(multibulk(words).repeat(2) +
            multibulk(List.of("ECHO", "x".repeat(RespDecoder.MAX_COPIED_BYTES + 1)))));
        decoder.read(ByteBufAllocator.DEFAULT, input);
        final ByteBuf[] first = decoder.next(true);
        assertEquals("item101", first[101].toString(StandardCharsets.US_ASCII));
        release(first);
        final ByteBuf[] second = decoder.next(true);
        assertSame(first, second, "released: the array and buffers are reused");
        assertEquals("item7", second[7].toString(StandardCharsets.US_ASCII));
        release(second);
        final ByteBuf[] echo = decoder.next(true);
        assertEquals(2, input.refCnt(), "too long to copy: a retained slice of the input, which it no longer holds");
        release(echo);
        assertEquals(0, input.refCnt());
        decoder.close();
    }

    private static String multibulk(final List<String> words)
    {
        final StringBuilder text = new StringBuilder("*" + words.size() + "\r\n");
        words.forEach(w -> text.append('$').append(w.length()).append("\r\n").append(w).append("\r\n"));
        return text.toString();
    }

    private static void release(final ByteBuf[] args)
    {
        for (final ByteBuf arg : args)
        {
            arg.release();
        }
    }

    /** An argument past --max-bulk-bytes is read when its command says it takes one that long, and not otherwise. */
    @Test
    void aCommandMayTakeArgumentsPastTheBulkLimit()
    {
        final LargeArguments large = (in, offset, length) ->
            in.toString(offset, length, StandardCharsets.US_ASCII).equalsIgnoreCase("BF.LOADCHUNK") ? 4000 : 0;
        final Harness h = new Harness(ARGS, BULK, REQUEST, large, new InputBudget(Long.MAX_VALUE), true);
        final String chunk = "c".repeat(3500);
        h.write(Unpooled.copiedBuffer(bytes("*4\r\n$12\r\nBF.LOADCHUNK\r\n$1\r\nk\r\n" +
            "$1\r\n2\r\n$3500\r\n" + chunk + "\r\n")));
        assertEquals(List.of("[BF.LOADCHUNK, k, 2, " + chunk + "]"), drain(h));
        h.write(Unpooled.copiedBuffer(bytes("*2\r\n$4\r\nECHO\r\n$3500\r\n")));
        assertEquals(List.of("ERR Protocol error: invalid bulk length (longer than 3000 bytes, --max-bulk-bytes)"),
            drain(h));
        h.decoder.close();
    }

    @Test
    void beforeAuthOnlySmallCommandsAreRead()
    {
        final String eleven = "*11\r\n" + "$1\r\nx\r\n".repeat(11);
        assertEquals(List.of("ERR Protocol error: unauthenticated multibulk length (at most 10 arguments before " +
            "AUTH)"), read(channel(new InputBudget(Long.MAX_VALUE), false), bytes(eleven), new int[0]));
        final Harness big = new Harness(100, 1 << 20, 1 << 20, new InputBudget(Long.MAX_VALUE), false);
        assertEquals(List.of("ERR Protocol error: unauthenticated bulk length (at most 16384 bytes before AUTH)"),
            read(big, bytes("*2\r\n$4\r\nAUTH\r\n$16385\r\n"), new int[0]));
    }

    @Test
    void theLimitsAreNamed()
    {
        assertEquals(List.of("ERR Protocol error: invalid multibulk length (more than 6 arguments)"),
            read(channel(), bytes("*7\r\n"), new int[0]));
        assertEquals(List.of("ERR Protocol error: invalid bulk length (longer than 3000 bytes, --max-bulk-bytes)"),
            read(channel(), bytes("*1\r\n$3001\r\n"), new int[0]));
        assertEquals(List.of("ERR command larger than the limit of 5000 bytes (--max-request-bytes)"),
            read(channel(), bytes("*2\r\n$3000\r\n" + "y".repeat(3000) + "\r\n$2001\r\n"), new int[0]));
        assertEquals(List.of("ERR Protocol error: too big inline request (more than 64 bytes)"),
            read(channel(), bytes("z".repeat(65)), new int[0]));
        assertEquals(List.of("[ECHO, a]", "ERR Protocol error: expected '$'"),
            read(channel(), bytes("ECHO a\r\n*1\r\n:5\r\n*1\r\n$1\r\nb\r\n"), new int[0]));
    }

    @Test
    void anUnfinishedCommandHoldsItsDeclaredSizeInTheBudgetUntilItCompletes()
    {
        final InputBudget budget = new InputBudget(10_000);
        final Harness channel = channel(budget, true);
        channel.write(Unpooled.copiedBuffer(bytes("*2\r\n$4\r\nECHO\r\n$2000\r\nab")));
        assertEquals(4 + 2000 + 2L * InputBudget.ARGUMENT_OVERHEAD, budget.reserved());
        channel.write(Unpooled.copiedBuffer(bytes("c".repeat(1998) + "\r\n")));
        assertEquals(List.of("[ECHO, ab" + "c".repeat(1998) + "]"), drain(channel));
        assertEquals(0, budget.reserved());
        // a second connection declaring more than the bound is refused, naming it
        final Harness greedy = new Harness(ARGS, BULK, 1 << 20, budget, true);
        greedy.write(Unpooled.copiedBuffer(bytes("*4\r\n" + ("$2900\r\n" + "d".repeat(2900) + "\r\n")
            .repeat(3) + "$2900\r\n")));
        assertEquals(List.of("ERR command input over the daemon's limit of 10000 bytes buffered across all " +
            "connections (--max-input-bytes); this connection held the most"), drain(greedy));
        assertEquals(0, budget.reserved());
        channel.decoder.close();
        greedy.decoder.close();
    }

    @Test
    void theConnectionHoldingTheMostGivesWayToANewcomer()
    {
        final InputBudget budget = new InputBudget(10_000);
        final Harness holder = new Harness(ARGS, 8000, 1 << 20, budget, true);
        holder.write(Unpooled.copiedBuffer(bytes("*2\r\n$4\r\nECHO\r\n$7000\r\nabc")));
        final Harness newcomer = channel(budget, true);
        newcomer.write(Unpooled.copiedBuffer(bytes("*2\r\n$4\r\nECHO\r\n$2900\r\nabc")));
        assertEquals(List.of("ERR command input over the daemon's limit of 10000 bytes buffered across all " +
            "connections (--max-input-bytes); this connection held the most; closing it"), drain(holder));
        assertEquals(List.of(), drain(newcomer));
        assertEquals(2900 + 4 + 2L * InputBudget.ARGUMENT_OVERHEAD, budget.reserved());
        newcomer.write(Unpooled.copiedBuffer(bytes("d".repeat(2897) + "\r\n")));
        assertEquals(List.of("[ECHO, abc" + "d".repeat(2897) + "]"), drain(newcomer));
        assertEquals(0, budget.reserved());
        holder.decoder.close();
        newcomer.decoder.close();
    }
}
