package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.redis.ArrayHeaderRedisMessage;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.RedisArrayAggregator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ByteBuf leak of issue 13: the arguments of a command a client abandons must be released. */
class ArrayAssemblerTest
{
    @Test
    void anUnfinishedCommandIsReleasedWhenTheConnectionCloses()
    {
        assertEquals(0, refCntAfterAbandon(ArrayAssembler::new));
    }

    /** Netty's aggregator, which the daemon used before: the arguments stay referenced — the leak. */
    @Test
    void nettysAggregatorKeepsThem()
    {
        assertEquals(1, refCntAfterAbandon(RedisArrayAggregator::new));
    }

    private static int refCntAfterAbandon(final Supplier<ChannelInboundHandler> aggregator)
    {
        final EmbeddedChannel channel = new EmbeddedChannel(aggregator.get());
        final ByteBuf argument = Unpooled.directBuffer(16).writeBytes("BF.ADD".getBytes(StandardCharsets.US_ASCII));
        channel.writeInbound(new ArrayHeaderRedisMessage(3));
        channel.writeInbound(new FullBulkStringRedisMessage(argument));
        assertTrue(channel.inboundMessages().isEmpty(), "nothing comes out of an unfinished command");
        channel.close();
        channel.finishAndReleaseAll();
        return argument.refCnt();
    }

    @Test
    void aFinishedCommandComesOutWhole()
    {
        final EmbeddedChannel channel = new EmbeddedChannel(new ArrayAssembler());
        channel.writeInbound(new ArrayHeaderRedisMessage(2));
        channel.writeInbound(new FullBulkStringRedisMessage(Unpooled.copiedBuffer("PING", StandardCharsets.US_ASCII)));
        channel.writeInbound(new FullBulkStringRedisMessage(Unpooled.copiedBuffer("x", StandardCharsets.US_ASCII)));
        final ArrayRedisMessage command = channel.readInbound();
        assertEquals(2, command.children().size());
        assertEquals("x", ((FullBulkStringRedisMessage)command.children().get(1)).content()
            .toString(StandardCharsets.US_ASCII));
        command.release();
        channel.finishAndReleaseAll();
    }
}
