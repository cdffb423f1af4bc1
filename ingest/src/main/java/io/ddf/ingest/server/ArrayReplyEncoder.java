package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;

import java.nio.charset.StandardCharsets;

/**
 * Writes a RESP2 array reply as one buffer. Netty's {@code RedisEncoder} writes every element as a buffer of its
 * own, and the channel counts about a hundred bytes of bookkeeping per buffer against the output limit: the
 * 2.8 MB reply to a {@code BF.MADD} of 700,000 items counted as more than 64 MiB and the daemon closed the
 * connection without a word (issue 13, item 5). Arrays holding anything but integers, simple strings, errors,
 * bulk strings and such arrays are left to {@code RedisEncoder}.
 */
final class ArrayReplyEncoder extends MessageToByteEncoder<ArrayRedisMessage>
{
    private static final byte[] CRLF = {'\r', '\n'};

    ArrayReplyEncoder()
    {
        super(ArrayRedisMessage.class, false);
    }

    @Override
    public boolean acceptOutboundMessage(final Object msg) throws Exception
    {
        return super.acceptOutboundMessage(msg) && encodable((ArrayRedisMessage)msg, 0);
    }

    private static boolean encodable(final ArrayRedisMessage array, final int depth)
    {
        if (array.isNull() || depth > 8)
        {
            return false;
        }
        for (final RedisMessage child : array.children())
        {
            if (child instanceof ArrayRedisMessage)
            {
                if (!encodable((ArrayRedisMessage)child, depth + 1))
                {
                    return false;
                }
            }
            else if (!(child instanceof IntegerRedisMessage || child instanceof SimpleStringRedisMessage ||
                child instanceof ErrorRedisMessage || child instanceof FullBulkStringRedisMessage))
            {
                return false;
            }
        }
        return true;
    }

    @Override
    protected void encode(final ChannelHandlerContext ctx, final ArrayRedisMessage msg, final ByteBuf out)
    {
        write(msg, out);
    }

    private static void write(final RedisMessage message, final ByteBuf out)
    {
        if (message instanceof ArrayRedisMessage)
        {
            final ArrayRedisMessage array = (ArrayRedisMessage)message;
            header(out, '*', array.children().size());
            for (final RedisMessage child : array.children())
            {
                write(child, out);
            }
        }
        else if (message instanceof IntegerRedisMessage)
        {
            header(out, ':', ((IntegerRedisMessage)message).value());
        }
        else if (message instanceof SimpleStringRedisMessage)
        {
            out.writeByte('+');
            out.writeCharSequence(((SimpleStringRedisMessage)message).content(), StandardCharsets.UTF_8);
            out.writeBytes(CRLF);
        }
        else if (message instanceof ErrorRedisMessage)
        {
            out.writeByte('-');
            out.writeCharSequence(((ErrorRedisMessage)message).content(), StandardCharsets.UTF_8);
            out.writeBytes(CRLF);
        }
        else
        {
            final FullBulkStringRedisMessage bulk = (FullBulkStringRedisMessage)message;
            if (bulk.isNull())
            {
                header(out, '$', -1);
                return;
            }
            header(out, '$', bulk.content().readableBytes());
            out.writeBytes(bulk.content(), bulk.content().readerIndex(), bulk.content().readableBytes());
            out.writeBytes(CRLF);
        }
    }

    private static void header(final ByteBuf out, final char type, final long value)
    {
        out.writeByte(type);
        ByteBufUtil.writeAscii(out, Long.toString(value));
        out.writeBytes(CRLF);
    }
}
