package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;

import java.nio.charset.StandardCharsets;

/**
 * Writes replies: the RESP2 types exactly as Netty's {@code RedisEncoder} does (RESP2 clients see the same bytes),
 * and the {@link Resp3} types, at any depth (a map inside an array, booleans in an array). Netty's encoder is
 * RESP2-only and cannot nest a type it does not know. A reply is written as one buffer, however many elements it
 * has: the channel counts about a hundred bytes of bookkeeping per buffer against the output limit, and an array
 * written a buffer per element (as Netty's encoder does) got a 700,000-item BF.MEXISTS closed without a reply.
 */
final class RespEncoder extends MessageToByteEncoder<RedisMessage>
{
    private static final byte[] CRLF = {'\r', '\n'};

    @Override
    protected void encode(final ChannelHandlerContext ctx, final RedisMessage msg, final ByteBuf out)
    {
        write(msg, out);
    }

    /**
     * @param msg a reply.
     * @param out gets its bytes.
     */
    static void write(final RedisMessage msg, final ByteBuf out)
    {
        if (msg instanceof SimpleStringRedisMessage simple)
        {
            line(out, '+', simple.content());
        }
        else if (msg instanceof ErrorRedisMessage error)
        {
            line(out, '-', error.content());
        }
        else if (msg instanceof IntegerRedisMessage integer)
        {
            line(out, ':', Long.toString(integer.value()));
        }
        else if (msg instanceof FullBulkStringRedisMessage bulk)
        {
            if (bulk.isNull())
            {
                line(out, '$', "-1");
            }
            else
            {
                line(out, '$', Integer.toString(bulk.content().readableBytes()));
                out.writeBytes(bulk.content(), bulk.content().readerIndex(), bulk.content().readableBytes());
                out.writeBytes(CRLF);
            }
        }
        else if (msg instanceof ArrayRedisMessage array)
        {
            if (array.isNull())
            {
                line(out, '*', "-1");
            }
            else
            {
                line(out, '*', Integer.toString(array.children().size()));
                array.children().forEach(child -> write(child, out));
            }
        }
        else if (msg instanceof Resp3.MapMessage map)
        {
            line(out, '%', Integer.toString(map.keysAndValues().size() / 2));
            map.keysAndValues().forEach(child -> write(child, out));
        }
        else if (msg instanceof Resp3.Bool bool)
        {
            line(out, '#', bool.value() ? "t" : "f");
        }
        else if (msg instanceof Resp3.Double number)
        {
            line(out, ',', format(number.value()));
        }
        else if (msg instanceof Resp3.Verbatim verbatim)
        {
            final byte[] text = (verbatim.format() + ":" + verbatim.text()).getBytes(StandardCharsets.UTF_8);
            line(out, '=', Integer.toString(text.length));
            out.writeBytes(text);
            out.writeBytes(CRLF);
        }
        else if (msg == Resp3.NULL)
        {
            line(out, '_', "");
        }
        else
        {
            throw new EncoderException("no RESP encoding for " + msg.getClass().getSimpleName());
        }
    }

    /** RESP3's double: {@code inf}, {@code -inf}, {@code nan}, else the shortest text that reads back equal. */
    static String format(final double value)
    {
        if (Double.isNaN(value))
        {
            return "nan";
        }
        if (Double.isInfinite(value))
        {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15)
        {
            return Long.toString((long)value);
        }
        return Double.toString(value);
    }

    private static void line(final ByteBuf out, final char type, final String text)
    {
        out.writeByte(type);
        ByteBufUtil.writeUtf8(out, text);
        out.writeBytes(CRLF);
    }
}
