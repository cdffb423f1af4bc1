package io.ddf.ingest.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisEncoder;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reply writer: RESP2 byte for byte as Netty's RedisEncoder, RESP3's types as the RESP3 specification, each
 * protocol-dependent type in the protocol in force at its place in the order, verdict replies, EXEC's header at its
 * place, one buffer per flush however large the reply, and nothing written after a reply that closes.
 */
class ReplyWriterTest
{
    /** A writer on a channel that keeps what is written, and verdicts given by hand. */
    private static final class Harness implements ReplyWriter.Verdicts
    {
        final EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        final ReplyWriter writer = new ReplyWriter(DurabilityBarrier.NONE, () -> true);
        final ArrayDeque<Boolean> verdicts = new ArrayDeque<>();
        int buffers;

        Harness()
        {
            writer.attach(channel.pipeline().firstContext());
        }

        @Override
        public int available()
        {
            return verdicts.size();
        }

        /** Per verdict to come, in order: why it is none (null: it is one). */
        final ArrayDeque<java.util.Optional<String>> failures = new ArrayDeque<>();
        String failed;

        @Override
        public boolean next()
        {
            final java.util.Optional<String> failure = failures.poll();
            failed = failure == null ? null : failure.orElse(null);
            return verdicts.poll();
        }

        @Override
        public String failed()
        {
            return failed;
        }

        /** Drains, flushes, and returns what was written since the last call. */
        String written()
        {
            writer.drain(this);
            writer.flush();
            final StringBuilder text = new StringBuilder();
            ByteBuf b;
            while ((b = channel.readOutbound()) != null)
            {
                buffers++;
                text.append(b.toString(StandardCharsets.ISO_8859_1));
                b.release();
            }
            return text.toString();
        }
    }

    private static String netty(final RedisMessage message)
    {
        final EmbeddedChannel channel = new EmbeddedChannel(new RedisEncoder());
        channel.writeOutbound(message);
        final StringBuilder bytes = new StringBuilder();
        ByteBuf out;
        while ((out = channel.readOutbound()) != null)
        {
            bytes.append(out.toString(StandardCharsets.ISO_8859_1));
            out.release();
        }
        channel.finishAndReleaseAll();
        return bytes.toString();
    }

    private static String ours(final RedisMessage message, final boolean resp3)
    {
        final Harness h = new Harness();
        h.writer.protocol(resp3);
        h.writer.ready(message);
        final String text = h.written();
        h.channel.finishAndReleaseAll();
        return text;
    }

    private static FullBulkStringRedisMessage bulk(final String text)
    {
        return new FullBulkStringRedisMessage(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
    }

    @Test
    void resp2IsWhatNettyWrites()
    {
        final List<Supplier<RedisMessage>> messages = List.of(
            () -> new SimpleStringRedisMessage("OK"),
            () -> new ErrorRedisMessage("ERR wrong number of arguments for 'x' command"),
            () -> new IntegerRedisMessage(0),
            () -> new IntegerRedisMessage(-1),
            () -> new IntegerRedisMessage(Long.MIN_VALUE),
            () -> new IntegerRedisMessage(Long.MAX_VALUE),
            () -> new IntegerRedisMessage(1_000_000_007L),
            () -> bulk(""),
            () -> bulk("caf\u00e9\r\n\u0000\u00ff"),
            () -> FullBulkStringRedisMessage.NULL_INSTANCE,
            () -> FullBulkStringRedisMessage.EMPTY_INSTANCE,
            () -> ArrayRedisMessage.NULL_INSTANCE,
            () -> ArrayRedisMessage.EMPTY_INSTANCE,
            () -> new ArrayRedisMessage(List.of(new IntegerRedisMessage(1), bulk("a"),
                new ArrayRedisMessage(List.of(bulk("nested"), FullBulkStringRedisMessage.NULL_INSTANCE)),
                new SimpleStringRedisMessage("QUEUED"), new ErrorRedisMessage("ERR x"))));
        for (final Supplier<RedisMessage> message : messages)
        {
            final RedisMessage forNetty = message.get();
            final String description = forNetty.toString();
            assertEquals(netty(forNetty), ours(message.get(), false), description);
            assertEquals(netty(message.get()), ours(message.get(), true), "RESP3 shares RESP2's types: " +
                description);
        }
    }

    @Test
    void resp3Types()
    {
        final List<RedisMessage> map = new ArrayList<>(List.of(bulk("proto"), new IntegerRedisMessage(3),
            bulk("ok"), ReplyTypes.TRUE, bulk("none"), ReplyTypes.NIL));
        assertEquals("%3\r\n$5\r\nproto\r\n:3\r\n$2\r\nok\r\n#t\r\n$4\r\nnone\r\n_\r\n",
            ours(new ReplyTypes.MapMessage(map), true));
        assertEquals("*2\r\n#t\r\n#f\r\n", ours(new ArrayRedisMessage(List.of(ReplyTypes.TRUE, ReplyTypes.FALSE)),
            true));
        assertEquals(",1.5\r\n", ours(new ReplyTypes.Double(1.5), true));
        assertEquals(",3\r\n", ours(new ReplyTypes.Double(3), true));
        assertEquals(",inf\r\n", ours(new ReplyTypes.Double(Double.POSITIVE_INFINITY), true));
        assertEquals(",-inf\r\n", ours(new ReplyTypes.Double(Double.NEGATIVE_INFINITY), true));
        assertEquals(",nan\r\n", ours(new ReplyTypes.Double(Double.NaN), true));
        assertEquals(1e-5, Double.parseDouble(ReplyTypes.format(1e-5)));
        assertEquals("=8\r\ntxt:a\u00e9b\r\n", new String(ours(new ReplyTypes.Verbatim("txt", "a\u00e9b"), true)
            .getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
        assertEquals("_\r\n", ours(ReplyTypes.NIL_ARRAY, true));
    }

    @Test
    void theSameValuesInResp2()
    {
        final List<RedisMessage> map = new ArrayList<>(List.of(bulk("ok"), ReplyTypes.TRUE, bulk("none"),
            ReplyTypes.NIL));
        assertEquals("*4\r\n$2\r\nok\r\n:1\r\n$4\r\nnone\r\n$-1\r\n", ours(new ReplyTypes.MapMessage(map), false));
        assertEquals("$3\r\n1.5\r\n", ours(new ReplyTypes.Double(1.5), false));
        assertEquals("$4\r\na\u00c3\u00a9b\r\n", ours(new ReplyTypes.Verbatim("txt", "a\u00e9b"), false));
        assertEquals("*-1\r\n", ours(ReplyTypes.NIL_ARRAY, false));
        assertEquals(":0\r\n", ours(ReplyTypes.FALSE, false));
    }

    @Test
    void verdictRepliesAreIntegersOrBooleansAndArraysOfThem()
    {
        final Harness h = new Harness();
        h.writer.verdicts(true, 1, false);
        h.writer.verdicts(false, 1, false);
        h.writer.verdicts(false, 3, true);
        h.verdicts.addAll(List.of(false, false, false, true, true));
        // streamed: 1 when UNSEEN; looked up: 1 when present
        assertEquals(":1\r\n:0\r\n*3\r\n:0\r\n:1\r\n:1\r\n", h.written());
        assertEquals(1, h.buffers, "one buffer per flush");
        final StringBuilder many = new StringBuilder("*300\r\n");
        h.writer.verdicts(true, 300, true);
        for (int i = 0; i < 300; i++)
        {
            h.verdicts.add(i % 3 != 0);
            many.append(i % 3 == 0 ? ":1\r\n" : ":0\r\n");
        }
        assertEquals(many.toString(), h.written());
        // RESP3: booleans, as RedisBloom's BF.ADD and BF.MADD answer there
        h.writer.protocol(true);
        h.writer.verdicts(true, 1, false);
        h.writer.verdicts(true, 2, true);
        h.verdicts.addAll(List.of(false, true, false));
        assertEquals("#t\r\n*2\r\n#f\r\n#t\r\n", h.written());
        h.channel.finishAndReleaseAll();
    }

    @Test
    void aReplyWaitsBehindOneWaitingForVerdictsAndAnArrayGoesOutAsItsVerdictsCome()
    {
        final Harness h = new Harness();
        h.writer.verdicts(true, 4, true);
        h.writer.ready(Replies.PONG);
        assertEquals("*4\r\n", h.written(), "the array's header goes out at the head, its verdicts as they come");
        h.verdicts.addAll(List.of(false, true));
        assertEquals(":1\r\n:0\r\n", h.written());
        h.verdicts.addAll(List.of(true, false));
        assertEquals(":0\r\n:1\r\n+PONG\r\n", h.written());
        h.channel.finishAndReleaseAll();
    }

    @Test
    void helloSwitchesTheProtocolAtItsPlaceAndExecsHeaderWaitsForItsPlace()
    {
        final Harness h = new Harness();
        h.writer.verdicts(true, 1, false);   // BF.ADD run in RESP2, its verdict not in yet
        h.writer.protocol(true);            // HELLO 3 after it
        h.writer.ready(Replies.bool(true)); // a reply after HELLO
        h.writer.group(2);                  // EXEC of two
        h.writer.ready(Replies.OK);
        h.writer.verdicts(false, 1, false);
        assertEquals("", h.written(), "nothing passes the reply waiting at the head");
        h.verdicts.add(false);
        assertEquals(":1\r\n#t\r\n*2\r\n+OK\r\n", h.written());
        h.verdicts.add(true);
        assertEquals("#t\r\n", h.written());
        h.writer.group(0);
        assertEquals("*0\r\n", h.written());
        h.channel.finishAndReleaseAll();
    }

    @Test
    void nothingIsWrittenAfterAReplyThatCloses()
    {
        final Harness h = new Harness();
        h.writer.ready(Replies.OK);
        assertFalse(h.writer.closing());
        h.writer.readyThenClose(new ErrorRedisMessage("ERR bye"));
        assertTrue(h.writer.closing());
        final ByteBuf echo = Unpooled.copiedBuffer("x", StandardCharsets.US_ASCII);
        h.writer.ready(new FullBulkStringRedisMessage(echo));
        assertEquals(0, echo.refCnt(), "a reply after the close is released, not written");
        assertEquals(ReplyWriter.Outcome.CLOSE, h.writer.drain(h));
        assertEquals("+OK\r\n-ERR bye\r\n", h.written());
        h.channel.finishAndReleaseAll();
    }

    /**
     * An array reply in one buffer, byte for byte what Netty's encoder writes in many: Netty's channel counts about a
     * hundred bytes of bookkeeping per buffer against the output limit, so the 2.8 MB reply to a 700,000-item
     * BF.MEXISTS written a buffer per element counted as more than 64 MiB and the connection was closed without a
     * word (issue 13).
     */
    @Test
    void sameBytesAsRedisEncoderInOneBuffer()
    {
        final List<RedisMessage> children = new ArrayList<>();
        for (int i = 0; i < 10_000; i++)
        {
            children.add(new IntegerRedisMessage(i % 2));
        }
        final Harness h = new Harness();
        h.writer.ready(new ArrayRedisMessage(children));
        final String ours = h.written();
        assertEquals(1, h.buffers);
        assertEquals(netty(new ArrayRedisMessage(children)), ours);
        h.channel.finishAndReleaseAll();
    }

    @Test
    void dropReleasesWhatWasNotWritten()
    {
        final Harness h = new Harness();
        h.writer.verdicts(true, 1, false);
        final ByteBuf echo = Unpooled.copiedBuffer("x", StandardCharsets.US_ASCII);
        h.writer.ready(new FullBulkStringRedisMessage(echo));
        h.writer.ready(Replies.OK);
        h.writer.drop();
        h.writer.drop();
        assertEquals(0, echo.refCnt());
        assertEquals("", h.written());
        h.channel.finishAndReleaseAll();
    }
    /**
     * A command whose elements were judged only in part (the filter refused a write midway): BF.MADD's array keeps the
     * verdicts it got and has the error in every later place, its header written before the cut or after; BF.ADD's
     * one verdict is the error; the replies after it follow. Before cutVerdicts the array waited for the verdicts
     * that never came, and every reply after it too.
     */
    @Test
    void aCutArrayHasTheErrorInTheRestOfItsPlacesAndTheRepliesAfterItFollow()
    {
        final Harness h = new Harness();
        h.writer.verdicts(true, 4, true);
        h.verdicts.add(false);
        h.verdicts.add(true);
        h.writer.cutVerdicts(2, "MISCONF no room");
        h.writer.ready(new SimpleStringRedisMessage("PONG"));
        assertEquals("*4\r\n:1\r\n:0\r\n-MISCONF no room\r\n-MISCONF no room\r\n+PONG\r\n", h.written());

        h.writer.verdicts(true, 3, true); // its header and first verdict out before the cut (the ring filled)
        h.verdicts.add(false);
        assertEquals("*3\r\n:1\r\n", h.written());
        h.writer.cutVerdicts(1, "MISCONF no room");
        h.writer.verdicts(true, 1, false);
        h.writer.cutVerdicts(0, "MISCONF no room");
        h.writer.verdicts(false, 1, false);
        h.verdicts.add(true);
        assertEquals("-MISCONF no room\r\n-MISCONF no room\r\n-MISCONF no room\r\n:1\r\n", h.written());
        h.channel.finishAndReleaseAll();
    }
    /** An element the pipeline could not judge has the error in its place, in an array or alone. */
    @Test
    void aVerdictThatFailedIsAnErrorInItsPlace()
    {
        final Harness h = new Harness();
        h.writer.verdicts(true, 3, true);
        h.writer.verdicts(true, 1, false);
        for (final boolean duplicate : new boolean[] {true, false, false, false})
        {
            h.verdicts.add(duplicate);
        }
        h.failures.add(java.util.Optional.empty());
        h.failures.add(java.util.Optional.of("MISCONF no room"));
        h.failures.add(java.util.Optional.empty());
        h.failures.add(java.util.Optional.of("MISCONF no room"));
        assertEquals("*3\r\n:0\r\n-MISCONF no room\r\n:1\r\n-MISCONF no room\r\n", h.written());
        h.channel.finishAndReleaseAll();
    }
}
