package io.ddf.ingest.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.util.ReferenceCountUtil;

import java.nio.charset.StandardCharsets;

/** A reply as the bytes a client reads, for tests that check a reply without a connection. */
public final class RespText
{
    private RespText()
    {
    }

    /**
     * @param reply a reply (released here).
     * @return its RESP2 bytes as text, e.g. {@code :1\r\n}.
     */
    public static String resp2(final RedisMessage reply)
    {
        return text(reply, false);
    }

    /**
     * @param reply a reply (released here).
     * @return its RESP3 bytes as text, e.g. {@code #t\r\n}.
     */
    public static String resp3(final RedisMessage reply)
    {
        return text(reply, true);
    }

    private static String text(final RedisMessage reply, final boolean resp3)
    {
        final ByteBuf out = Unpooled.buffer();
        try
        {
            RespEncoding.write(reply, out, resp3);
            return out.toString(StandardCharsets.ISO_8859_1);
        }
        finally
        {
            out.release();
            ReferenceCountUtil.release(reply);
        }
    }
}
