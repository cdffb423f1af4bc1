package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Operation;
import io.ddf.ingest.resp.DurabilityBarrier;
import io.ddf.ingest.resp.ReplyWriter;
import io.ddf.ingest.session.VerdictRing;
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

    /**
     * A Bloom filter of 2^24 bits and 8 hash functions: it forgets nothing and answers these few thousand elements
     * exactly (a false positive among them has odds of ~10^-17), so the expected replies are an exact set's.
     */
    private static DuplicateFilter exactBloom(final long seed)
    {
        return Filters.builder(FilterKind.BLOOM).memoryBits(1 << 24).param("hash-functions", 8).seed(seed).create();
    }

    /** Elements in order, and the reply an exact set gives each. */
    private static final class Expected
    {
        final List<String> items = new ArrayList<>();
        final List<Long> replies = new ArrayList<>();
        private final java.util.Set<String> seen = new java.util.HashSet<>();

        void add(final String item)
        {
            items.add(item);
            replies.add(seen.add(item) ? 1L : 0L);
        }
    }

    @Test
    void everyReplyIsWrittenAfterItsRowIsStoredAndInOrder()
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        try (DuplicateFilter filter = exactBloom(seed))
        {
            final Expected expected = new Expected();
            final List<String> items = expected.items;
            // more elements than the verdict ring holds, so submit must write replies to make room on the way
            final int n = VerdictRing.RING * 3 + random.nextInt(VerdictRing.RING);
            for (int i = 0; i < n; i++)
            {
                expected.add("e" + random.nextInt(n / 2));
            }
            final Checker checker = new Checker(filter, items, expected.replies);
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
    /**
     * BF.MADD's way ({@link VerdictRing#submitAll}: hashed and touched in groups, then streamed): the same replies,
     * each after its row is stored, in order, for commands of 1 to a few hundred items, and one of more items than
     * the ring holds.
     */
    @Test
    void aCommandsItemsJudgedInGroupsAnswerAsOneByOne()
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        try (DuplicateFilter filter = exactBloom(seed))
        {
            final Expected expected = new Expected();
            final List<String> items = expected.items;
            final List<Integer> commands = new ArrayList<>();
            int n = 0;
            while (n < VerdictRing.RING * 3)
            {
                final int size = commands.size() == 3 ? VerdictRing.RING + 1 + random.nextInt(100) :
                    1 + random.nextInt(random.nextBoolean() ? VerdictRing.GROUP * 2 : 300);
                commands.add(size);
                for (int i = 0; i < size; i++)
                {
                    expected.add("e" + random.nextInt(VerdictRing.RING * 2));
                }
                n += size;
            }
            final Checker checker = new Checker(filter, items, expected.replies);
            final Probe probe = new Probe();
            final EmbeddedChannel channel = new EmbeddedChannel(checker, probe);
            int next = 0;
            for (final int size : commands)
            {
                // BF.MADD key item...: the items from index 2
                final ByteBuf[] args = new ByteBuf[size + 2];
                args[0] = Unpooled.copiedBuffer("BF.MADD", StandardCharsets.UTF_8);
                args[1] = Unpooled.copiedBuffer("k", StandardCharsets.UTF_8);
                for (int i = 0; i < size; i++)
                {
                    probe.replies.verdicts(true, 1, false);
                    args[i + 2] = Unpooled.copiedBuffer(items.get(next++), StandardCharsets.UTF_8);
                }
                probe.verdicts.submitAll(filter, Operation.STREAM, args, 2);
                for (final ByteBuf arg : args)
                {
                    arg.release();
                }
            }
            probe.onVerdicts();
            channel.checkException();
            assertEquals(n, checker.written, "every element replied to (seed " + seed + ")");
            assertEquals(0, probe.verdicts.unjudged(), "nothing left unjudged inline");
            channel.finishAndReleaseAll();
        }
    }
}
