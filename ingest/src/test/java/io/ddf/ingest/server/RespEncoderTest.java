package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
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
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** RESP2 replies are byte for byte what Netty's RedisEncoder writes; RESP3 types as the RESP3 specification. */
class RespEncoderTest
{
    private static String encode(final io.netty.channel.ChannelHandler encoder, final RedisMessage message)
    {
        final EmbeddedChannel channel = new EmbeddedChannel(encoder);
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
            assertEquals(encode(new RedisEncoder(), forNetty), encode(new RespEncoder(), message.get()), description);
        }
    }

    @Test
    void resp3Types()
    {
        final List<RedisMessage> map = new ArrayList<>(List.of(bulk("proto"), new IntegerRedisMessage(3),
            bulk("ok"), Resp3.TRUE, bulk("none"), Resp3.NULL));
        assertEquals("%3\r\n$5\r\nproto\r\n:3\r\n$2\r\nok\r\n#t\r\n$4\r\nnone\r\n_\r\n",
            encode(new RespEncoder(), new Resp3.MapMessage(map)));
        assertEquals("*2\r\n#t\r\n#f\r\n",
            encode(new RespEncoder(), new ArrayRedisMessage(List.of(Resp3.TRUE, Resp3.FALSE))));
        assertEquals(",1.5\r\n", encode(new RespEncoder(), new Resp3.Double(1.5)));
        assertEquals(",3\r\n", encode(new RespEncoder(), new Resp3.Double(3)));
        assertEquals(",inf\r\n", encode(new RespEncoder(), new Resp3.Double(Double.POSITIVE_INFINITY)));
        assertEquals(",-inf\r\n", encode(new RespEncoder(), new Resp3.Double(Double.NEGATIVE_INFINITY)));
        assertEquals(",nan\r\n", encode(new RespEncoder(), new Resp3.Double(Double.NaN)));
        assertEquals(1e-5, Double.parseDouble(RespEncoder.format(1e-5)));
        assertEquals("=8\r\ntxt:a\u00e9b\r\n", new String(ByteBufUtil.getBytes(encodeBytes(
            new Resp3.Verbatim("txt", "a\u00e9b"))), StandardCharsets.UTF_8));
    }

    private static ByteBuf encodeBytes(final RedisMessage message)
    {
        final ByteBuf out = Unpooled.buffer();
        RespEncoder.write(message, out);
        return out;
    }
}
