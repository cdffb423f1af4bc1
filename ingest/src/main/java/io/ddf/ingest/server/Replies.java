package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The RESP reply values the commands share, and the helpers that make the others. */
final class Replies
{
    static final SimpleStringRedisMessage OK = new SimpleStringRedisMessage("OK");
    static final SimpleStringRedisMessage PONG = new SimpleStringRedisMessage("PONG");
    static final IntegerRedisMessage ONE = new IntegerRedisMessage(1);
    static final IntegerRedisMessage ZERO = new IntegerRedisMessage(0);
    static final ErrorRedisMessage NOAUTH = new ErrorRedisMessage("NOAUTH Authentication required.");

    private Replies()
    {
    }

    /**
     * @param text UTF-8 text.
     * @return a bulk string.
     */
    static FullBulkStringRedisMessage bulk(final String text)
    {
        return new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * @param value an integer.
     * @return a RESP integer.
     */
    static IntegerRedisMessage integer(final long value)
    {
        return value == 0 ? ZERO : value == 1 ? ONE : new IntegerRedisMessage(value);
    }

    /**
     * @param texts UTF-8 texts.
     * @return an array of bulk strings.
     */
    static ArrayRedisMessage bulks(final List<String> texts)
    {
        final List<RedisMessage> values = new ArrayList<>(texts.size());
        texts.forEach(t -> values.add(bulk(t)));
        return new ArrayRedisMessage(values);
    }

    /**
     * @param texts status strings, as Redis gives command flags.
     * @return an array of simple strings.
     */
    static ArrayRedisMessage statuses(final List<String> texts)
    {
        final List<RedisMessage> values = new ArrayList<>(texts.size());
        texts.forEach(t -> values.add(new SimpleStringRedisMessage(t)));
        return new ArrayRedisMessage(values);
    }

    /** @return an empty array. */
    static ArrayRedisMessage empty()
    {
        return new ArrayRedisMessage(new ArrayList<>());
    }

    /**
     * @param arg an argument.
     * @return it as a key (ISO-8859-1: every byte one char, so every key round-trips).
     */
    static String key(final ByteBuf arg)
    {
        return arg.toString(StandardCharsets.ISO_8859_1);
    }

    /**
     * @param arg an argument.
     * @return it as lower-case UTF-8 text: a subcommand or an option.
     */
    static String word(final ByteBuf arg)
    {
        return arg.toString(StandardCharsets.UTF_8).toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * @param arg   an argument.
     * @param error the reply when it is not an integer.
     * @return its value.
     * @throws RespError when it is not an integer.
     */
    static long integer(final ByteBuf arg, final String error)
    {
        return integer(arg.toString(StandardCharsets.US_ASCII), error);
    }

    /**
     * @param text  text.
     * @param error the reply when it is not an integer.
     * @return its value.
     * @throws RespError when it is not an integer.
     */
    static long integer(final String text, final String error)
    {
        try
        {
            return Long.parseLong(text);
        }
        catch (final NumberFormatException e)
        {
            throw new RespError(error);
        }
    }
}
