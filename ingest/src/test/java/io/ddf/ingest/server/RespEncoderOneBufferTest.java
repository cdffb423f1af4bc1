package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An array reply in one buffer, byte for byte what Netty's encoder writes in many: Netty's channel counts about a
 * hundred bytes of bookkeeping per buffer against the output limit, so the 2.8 MB reply to a 700,000-item BF.MEXISTS
 * written a buffer per element counted as more than 64 MiB and the connection was closed without a word (issue 13).
 */
class RespEncoderOneBufferTest
{
    @Test
    void sameBytesAsRedisEncoderInOneBuffer()
    {
        final EmbeddedChannel ours = new EmbeddedChannel(new RespEncoder());
        final EmbeddedChannel netty = new EmbeddedChannel(new RedisEncoder());
        ours.writeOutbound(reply());
        netty.writeOutbound(reply());
        assertEquals(1, ours.outboundMessages().size());
        final ByteBuf one = ours.readOutbound();
        final StringBuilder expected = new StringBuilder();
        for (ByteBuf b = netty.readOutbound(); b != null; b = netty.readOutbound())
        {
            expected.append(b.toString(StandardCharsets.UTF_8));
            b.release();
        }
        assertEquals(expected.toString(), one.toString(StandardCharsets.UTF_8));
        one.release();
    }

    private static ArrayRedisMessage reply()
    {
        final List<RedisMessage> nested = List.of(new IntegerRedisMessage(-7), FullBulkStringRedisMessage.NULL_INSTANCE);
        return new ArrayRedisMessage(List.of(new IntegerRedisMessage(1), new SimpleStringRedisMessage("OK"),
            new ErrorRedisMessage("ERR x"), new FullBulkStringRedisMessage(Unpooled.copiedBuffer("é", StandardCharsets.UTF_8)),
            new ArrayRedisMessage(nested), ArrayRedisMessage.EMPTY_INSTANCE));
    }
}
