package io.ddf.ingest.server;

import io.ddf.persistence.testing.TestSeed;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.FixedRedisMessagePool;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.InlineCommandRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisArrayAggregator;
import io.netty.handler.codec.redis.RedisBulkStringAggregator;
import io.netty.handler.codec.redis.RedisDecoder;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bulk string aggregator reads what Netty's did: the same commands from the same bytes however the reads split
 * them, and every buffer released.
 */
class BulkStringAggregatorTest
{
    private static final int MAX = 1 << 20;

    private static EmbeddedChannel ours()
    {
        return new EmbeddedChannel(new RedisDecoder(MAX, FixedRedisMessagePool.INSTANCE, true),
            new RespGuard(1024, MAX, MAX, new InputBudget(Long.MAX_VALUE), () -> true), new BulkStringAggregator(), new RedisArrayAggregator());
    }

    private static EmbeddedChannel netty()
    {
        return new EmbeddedChannel(new RedisDecoder(MAX, FixedRedisMessagePool.INSTANCE, true),
            new RespGuard(1024, MAX, MAX, new InputBudget(Long.MAX_VALUE), () -> true), new RedisBulkStringAggregator(), new RedisArrayAggregator());
    }

    /** Feeds the bytes in pieces cut at the given points and returns what came out, as text, released. */
    private static List<String> read(final EmbeddedChannel channel, final byte[] bytes, final int[] cuts)
    {
        int from = 0;
        for (final int cut : cuts)
        {
            channel.writeInbound(Unpooled.copiedBuffer(bytes, from, cut - from));
            from = cut;
        }
        channel.writeInbound(Unpooled.copiedBuffer(bytes, from, bytes.length - from));
        final List<String> out = new ArrayList<>();
        Object msg;
        final List<ByteBuf> contents = new ArrayList<>();
        while ((msg = channel.readInbound()) != null)
        {
            out.add(text(msg, contents));
            ReferenceCountUtil.release(msg);
        }
        channel.finishAndReleaseAll();
        for (final ByteBuf content : contents)
        {
            assertEquals(0, content.refCnt(), "a bulk string's buffer was not released with its command");
        }
        return out;
    }

    private static String text(final Object msg, final List<ByteBuf> contents)
    {
        if (msg instanceof ArrayRedisMessage)
        {
            final ArrayRedisMessage array = (ArrayRedisMessage)msg;
            if (array.isNull())
            {
                return "null-array";
            }
            final StringBuilder b = new StringBuilder("[");
            for (final RedisMessage child : array.children())
            {
                b.append(text(child, contents)).append(',');
            }
            return b.append(']').toString();
        }
        if (msg instanceof FullBulkStringRedisMessage)
        {
            final FullBulkStringRedisMessage bulk = (FullBulkStringRedisMessage)msg;
            if (bulk.isNull())
            {
                return "null";
            }
            if (bulk.content().refCnt() > 0 && bulk.content() != Unpooled.EMPTY_BUFFER)
            {
                contents.add(bulk.content());
            }
            return "$" + bulk.content().toString(StandardCharsets.ISO_8859_1);
        }
        if (msg instanceof InlineCommandRedisMessage)
        {
            return "inline:" + ((InlineCommandRedisMessage)msg).content();
        }
        if (msg instanceof IntegerRedisMessage)
        {
            return ":" + ((IntegerRedisMessage)msg).value();
        }
        return msg.toString();
    }

    @Test
    void readsWhatNettysAggregatorsReadHoweverTheBytesAreSplit()
    {
        final Random random = TestSeed.random();
        for (int round = 0; round < 300; round++)
        {
            final StringBuilder wire = new StringBuilder();
            final int commands = 1 + random.nextInt(6);
            for (int c = 0; c < commands; c++)
            {
                switch (random.nextInt(8))
                {
                    case 0 -> wire.append("PING ").append(random.nextInt(100)).append("\r\n");
                    case 1 -> wire.append("*0\r\n");
                    case 2 -> wire.append("*2\r\n$4\r\nECHO\r\n$0\r\n\r\n");
                    case 3 -> wire.append("*2\r\n$4\r\nECHO\r\n$-1\r\n");
                    default ->
                    {
                        final int args = 1 + random.nextInt(5);
                        wire.append('*').append(args).append("\r\n");
                        for (int a = 0; a < args; a++)
                        {
                            final StringBuilder arg = new StringBuilder();
                            final int length = random.nextInt(4) == 0 ? random.nextInt(3000) : random.nextInt(12);
                            for (int i = 0; i < length; i++)
                            {
                                arg.append((char)(random.nextInt(256)));
                            }
                            wire.append('$').append(arg.length()).append("\r\n").append(arg).append("\r\n");
                        }
                    }
                }
            }
            final byte[] bytes = wire.toString().getBytes(StandardCharsets.ISO_8859_1);
            final int pieces = random.nextInt(6);
            final int[] cuts = random.ints(pieces, 0, bytes.length + 1).sorted().toArray();
            final List<String> expected = read(netty(), bytes, cuts);
            assertEquals(expected, read(ours(), bytes, cuts), "round " + round + ", cuts " + List.of(cuts));
            assertTrue(expected.size() >= commands - 1);
        }
    }

    @Test
    void aBulkStringAbandonedPartWayIsReleasedWhenTheConnectionCloses()
    {
        final EmbeddedChannel channel = ours();
        final ByteBuf first = Unpooled.copiedBuffer("$5\r\nab", StandardCharsets.US_ASCII);
        channel.writeInbound(first);
        assertNull(channel.readInbound());
        channel.close();
        assertEquals(0, first.refCnt());
    }
}
