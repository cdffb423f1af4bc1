package io.ddf.ingest.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;

import java.nio.charset.StandardCharsets;

/**
 * RESP's bytes for one reply, in RESP2 or RESP3: the encoding half of the {@link ReplyWriter}, which keeps the
 * order, the queue and the flushes. Stateless: the protocol in force comes with each call, chosen by the writer at
 * the reply's place in the order. RESP2 replies are byte for byte what Netty's {@code RedisEncoder} writes.
 */
final class RespEncoding
{
    static final short CRLF = '\r' << 8 | '\n';
    private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

    private RespEncoding()
    {
    }

    /**
     * Writes one reply in the protocol in force.
     *
     * @param msg a reply.
     * @param b   gets its bytes.
     */
    static void write(final RedisMessage msg, final ByteBuf b, final boolean resp3)
    {
        if (msg instanceof SimpleStringRedisMessage simple)
        {
            line(b, '+', simple.content());
        }
        else if (msg instanceof ErrorRedisMessage error)
        {
            line(b, '-', error.content());
        }
        else if (msg instanceof IntegerRedisMessage integer)
        {
            b.writeByte(':');
            decimal(b, integer.value());
            b.writeShort(CRLF);
        }
        else if (msg instanceof FullBulkStringRedisMessage bulk)
        {
            if (bulk.isNull())
            {
                header(b, '$', -1);
            }
            else
            {
                final ByteBuf content = bulk.content();
                header(b, '$', content.readableBytes());
                b.writeBytes(content, content.readerIndex(), content.readableBytes());
                b.writeShort(CRLF);
            }
        }
        else if (msg instanceof ArrayRedisMessage array)
        {
            if (array.isNull())
            {
                header(b, '*', -1);
            }
            else
            {
                header(b, '*', array.children().size());
                for (final RedisMessage child : array.children())
                {
                    write(child, b, resp3);
                }
            }
        }
        else
        {
            writeTyped(msg, b, resp3);
        }
    }

    /** The types whose RESP depends on the protocol: the one place that decides. */
    private static void writeTyped(final RedisMessage msg, final ByteBuf b, final boolean resp3)
    {
        if (msg instanceof ReplyTypes.Bool bool)
        {
            b.writeInt(ReplyWriter.verdict(bool.value(), resp3));
        }
        else if (msg == ReplyTypes.NIL)
        {
            if (resp3)
            {
                b.writeByte('_').writeShort(CRLF);
            }
            else
            {
                header(b, '$', -1);
            }
        }
        else if (msg == ReplyTypes.NIL_ARRAY)
        {
            if (resp3)
            {
                b.writeByte('_').writeShort(CRLF);
            }
            else
            {
                header(b, '*', -1);
            }
        }
        else if (msg instanceof ReplyTypes.Double number)
        {
            final String text = ReplyTypes.format(number.value());
            if (resp3)
            {
                line(b, ',', text);
            }
            else
            {
                bulk(b, "", text);
            }
        }
        else if (msg instanceof ReplyTypes.MapMessage map)
        {
            header(b, resp3 ? '%' : '*', resp3 ? map.keysAndValues().size() / 2 : map.keysAndValues().size());
            for (final RedisMessage child : map.keysAndValues())
            {
                write(child, b, resp3);
            }
        }
        else if (msg instanceof ReplyTypes.Verbatim verbatim)
        {
            if (resp3)
            {
                b.writeByte('=');
                decimal(b, ByteBufUtil.utf8Bytes(verbatim.text()) + 4);
                b.writeShort(CRLF);
                ByteBufUtil.writeAscii(b, verbatim.format());
                b.writeByte(':');
                ByteBufUtil.writeUtf8(b, verbatim.text());
                b.writeShort(CRLF);
            }
            else
            {
                bulk(b, "", verbatim.text());
            }
        }
        else
        {
            throw new EncoderException("no RESP encoding for " + msg.getClass().getSimpleName());
        }
    }

    private static void bulk(final ByteBuf b, final String prefix, final String text)
    {
        header(b, '$', ByteBufUtil.utf8Bytes(prefix) + ByteBufUtil.utf8Bytes(text));
        ByteBufUtil.writeUtf8(b, prefix);
        ByteBufUtil.writeUtf8(b, text);
        b.writeShort(CRLF);
    }

    private static void line(final ByteBuf b, final char type, final String text)
    {
        b.writeByte(type);
        ByteBufUtil.writeUtf8(b, text);
        b.writeShort(CRLF);
    }

    /** {@code type}, the length, CRLF: an array, map or bulk string's header. */
    static void header(final ByteBuf b, final char type, final long length)
    {
        b.writeByte(type);
        decimal(b, length);
        b.writeShort(CRLF);
    }

    /** Writes a long in decimal without making a String. */
    static void decimal(final ByteBuf b, final long value)
    {
        if (value == Long.MIN_VALUE)
        {
            b.writeBytes(MIN_LONG);
            return;
        }
        long v = value;
        if (v < 0)
        {
            b.writeByte('-');
            v = -v;
        }
        long scale = 1;
        while (v / scale >= 10)
        {
            scale *= 10;
        }
        for (; scale > 0; scale /= 10)
        {
            b.writeByte((int)('0' + v / scale % 10));
        }
    }
}
