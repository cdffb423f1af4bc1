package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Operation;
import io.ddf.persistence.testing.TestSeed;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --execution inline} at the connection: every reply leaves the connection only once its element's row is
 * in the filter's mapping, and the replies come out in submission order. A handler in front of the connection
 * checks each written reply against the filter at the moment of the write, so a connection that wrote a verdict
 * before storing its element (or that reordered verdicts) fails here deterministically, with no race to win.
 */
class InlineSubmitTest
{
    /** Four bytes per verdict reply ({@code :0\r\n} / {@code :1\r\n}, {@link ReplyWriter}). */
    private static final int REPLY_BYTES = 4;

    /** A connection judging inline: its verdict ring and its reply writer, as a RESP connection holds them. */
    private static final class Probe extends ChannelInboundHandlerAdapter implements VerdictRing.Owner
    {
        final ReplyWriter replies = new ReplyWriter(DurabilityBarrier.NONE, () -> true);
        final VerdictRing verdicts = new VerdictRing(null, 64, true, this);

        @Override
        public void handlerAdded(final ChannelHandlerContext ctx)
        {
            replies.attach(ctx);
            verdicts.attach(ctx.executor());
        }

        @Override
        public void onVerdicts()
        {
            replies.drain(verdicts);
            replies.flush();
        }
    }

    /** At each write, checks the verdicts written against the filter's state and the expected answers. */
    private static final class Checker extends ChannelOutboundHandlerAdapter
    {
        final DuplicateFilter filter;
        final List<String> items;
        final List<Long> expected;
        int written;

        Checker(final DuplicateFilter filter, final List<String> items, final List<Long> expected)
        {
            this.filter = filter;
            this.items = items;
            this.expected = expected;
        }

        @Override
        public void write(final ChannelHandlerContext ctx, final Object msg, final ChannelPromise promise)
        {
            final ByteBuf bytes = (ByteBuf)msg;
            while (bytes.readableBytes() >= REPLY_BYTES)
            {
                final String reply = bytes.readCharSequence(REPLY_BYTES, StandardCharsets.US_ASCII).toString();
                final String item = items.get(written);
                assertTrue(filter.contains(item), "the reply to element " + written + " (" + item +
                    ") was written before its row was in the mapping");
                assertEquals(":" + expected.get(written) + "\r\n", reply, "reply " + written + " out of order");
                written++;
            }
            bytes.release();
            promise.setSuccess();
        }
    }

    @Test
    void everyReplyIsWrittenAfterItsRowIsStoredAndInOrder()
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        // a Bloom filter of 2^24 bits and 8 hash functions forgets nothing and answers these few thousand elements
        // exactly (a false positive among them has odds of ~10^-17), so the expected replies are an exact set's
        try (DuplicateFilter filter = Filters.builder(FilterKind.BLOOM).memoryBits(1 << 24)
            .param("hash-functions", 8).seed(seed).create())
        {
            final List<String> items = new ArrayList<>();
            final List<Long> expected = new ArrayList<>();
            final java.util.Set<String> seen = new java.util.HashSet<>();
            // more elements than the verdict ring holds, so submit must write replies to make room on the way
            final int n = VerdictRing.RING * 3 + random.nextInt(VerdictRing.RING);
            for (int i = 0; i < n; i++)
            {
                final String item = "e" + random.nextInt(n / 2);
                items.add(item);
                expected.add(seen.add(item) ? 1L : 0L);
            }
            final Checker checker = new Checker(filter, items, expected);
            final Probe probe = new Probe();
            final EmbeddedChannel channel = new EmbeddedChannel(checker, probe);
            for (final String item : items)
            {
                probe.replies.verdicts(true, 1, false);
                final ByteBuf bytes = Unpooled.copiedBuffer(item, StandardCharsets.UTF_8);
                probe.verdicts.submit(filter, Operation.STREAM, bytes);
                bytes.release();
            }
            probe.onVerdicts();
            channel.checkException(); // a failed check inside the write
            assertEquals(n, checker.written, "every element replied to (seed " + seed + ")");
            assertEquals(0, probe.verdicts.unjudged(), "nothing left unjudged inline");
            channel.finishAndReleaseAll();
        }
    }
}
