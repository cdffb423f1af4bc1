package io.ddf.ingest.session;

import io.ddf.ingest.resp.Replies;
import io.netty.buffer.ByteBuf;

/**
 * A connection's last key argument as text ({@link Replies#key}), kept so that a client sending command after
 * command to one key (the common case: redis-benchmark, a stream deduplicated into one filter) does not make a new
 * String for each: the daemon's allocation profile under BF.ADD -P 16 had the key's String and its bytes at 17 %
 * of the bytes allocated per command. Keys are compared byte for byte, so a different key is never mistaken for
 * the cached one. Owned by one event loop.
 */
final class KeyCache
{
    /** Keys longer than this are not cached: comparing them would cost about what decoding them does. */
    private static final int MAX_CACHED = 256;

    private byte[] bytes = new byte[0];
    private String key = "";

    /**
     * @param arg a key argument (not consumed).
     * @return its text, as {@link Replies#key} gives it.
     */
    String key(final ByteBuf arg)
    {
        final int length = arg.readableBytes();
        if (length == bytes.length && same(arg, length))
        {
            return key;
        }
        final String text = Replies.key(arg);
        if (length <= MAX_CACHED)
        {
            final byte[] copy = new byte[length];
            arg.getBytes(arg.readerIndex(), copy);
            bytes = copy;
            key = text;
        }
        return text;
    }

    private boolean same(final ByteBuf arg, final int length)
    {
        if (arg.hasArray())
        {
            final int at = arg.arrayOffset() + arg.readerIndex();
            return java.util.Arrays.equals(arg.array(), at, at + length, bytes, 0, length);
        }
        final int from = arg.readerIndex();
        for (int i = 0; i < length; i++)
        {
            if (arg.getByte(from + i) != bytes[i])
            {
                return false;
            }
        }
        return true;
    }
}
