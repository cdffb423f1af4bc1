package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;

/**
 * The verdict replies of one {@link ReplyQueue#write} as bytes in one buffer: BF.ADD's and BF.EXISTS's {@code :0} /
 * {@code :1}, and BF.MADD's and BF.MEXISTS's arrays of them, encoded here instead of as one
 * {@link io.netty.handler.codec.redis.RedisMessage} each. The profile of {@code BF.ADD} under {@code -P 16} showed
 * the encoder allocating (and freeing, through a Cleaner) one direct buffer per reply and the write a promise per
 * reply; these bytes cost one pooled buffer and one write per batch. RESP2 gets integers, RESP3 booleans (the
 * protocol the connection spoke when the command was queued); the array header is the same in both.
 *
 * <p>The buffer is pooled (it leaves through the channel, which releases it once written or failed), as the socket
 * reads are ({@link ReadBufferAllocator}). Owned by one connection's event loop.
 */
final class VerdictBytes
{
    private static final ByteBufAllocator POOL = PooledByteBufAllocator.DEFAULT;
    /** {@code :0\r\n} and {@code :1\r\n} as ints, big-endian, so one reply is one store. */
    private static final int ZERO = ':' << 24 | '0' << 16 | '\r' << 8 | '\n';
    private static final int ONE = ':' << 24 | '1' << 16 | '\r' << 8 | '\n';
    /** RESP3's {@code #t\r\n} and {@code #f\r\n}: also four bytes. */
    private static final int TRUE = '#' << 24 | 't' << 16 | '\r' << 8 | '\n';
    private static final int FALSE = '#' << 24 | 'f' << 16 | '\r' << 8 | '\n';
    private static final int INITIAL = 256;

    private ByteBuf out;

    /**
     * @param resp3 whether the connection speaks RESP3 (a boolean, as RedisBloom answers there) or RESP2 (an integer).
     * @param one   whether the reply is 1 / true (else 0 / false).
     */
    void bool(final boolean resp3, final boolean one)
    {
        buffer(Integer.BYTES).writeInt(resp3 ? (one ? TRUE : FALSE) : (one ? ONE : ZERO));
    }

    /** @param count the array header of {@code count} integers that follow. */
    void arrayHeader(final int count)
    {
        final ByteBuf b = buffer(16);
        b.writeByte('*');
        writeDecimal(b, count);
        b.writeShort('\r' << 8 | '\n');
    }

    private static void writeDecimal(final ByteBuf b, final int value)
    {
        if (value >= 10)
        {
            writeDecimal(b, value / 10);
        }
        b.writeByte('0' + value % 10);
    }

    private ByteBuf buffer(final int bytes)
    {
        if (out == null)
        {
            out = POOL.directBuffer(INITIAL);
        }
        out.ensureWritable(bytes);
        return out;
    }

    /**
     * Writes (without flushing) what was encoded since the last call, so that a reply written next comes after it.
     *
     * @param ctx the connection.
     * @return whether anything was written.
     */
    boolean writeTo(final ChannelHandlerContext ctx)
    {
        if (out == null)
        {
            return false;
        }
        final ByteBuf b = out;
        out = null;
        ctx.write(b, ctx.voidPromise());
        return true;
    }

    /** Drops what was encoded and not written (the connection is closing). */
    void drop()
    {
        if (out != null)
        {
            out.release();
            out = null;
        }
    }
}
