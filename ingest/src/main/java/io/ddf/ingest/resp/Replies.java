package io.ddf.ingest.resp;

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

/**
 * The RESP reply values the commands share, and the helpers that make the others. A command never chooses between
 * RESP2 and RESP3: the helpers for the types the protocols write differently ({@link ReplyTypes}) make values the
 * {@link ReplyWriter} writes in the connection's protocol (as Redis and RedisBloom answer in each), so every command
 * that replies through them speaks both. For a new command: a yes/no is {@link #bool} (CF.ADD, CF.DEL...), a
 * verdict-based one {@link Session#judge}, an INFO-like description a list of named plain values given to
 * {@link #fields} (as {@link BloomInfo} does for BF.INFO: a map in RESP3, a flat array in RESP2), a missing value
 * {@link #nil}, text for people {@link #verbatim}.
 */
public final class Replies
{
    public static final SimpleStringRedisMessage OK = new SimpleStringRedisMessage("OK");
    public static final SimpleStringRedisMessage PONG = new SimpleStringRedisMessage("PONG");
    static final IntegerRedisMessage ONE = new IntegerRedisMessage(1);
    public static final IntegerRedisMessage ZERO = new IntegerRedisMessage(0);
    public static final ErrorRedisMessage NOAUTH = new ErrorRedisMessage("NOAUTH Authentication required.");

    private Replies()
    {
    }

    /**
     * @param text UTF-8 text.
     * @return a bulk string.
     */
    public static FullBulkStringRedisMessage bulk(final String text)
    {
        return new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * @param bytes bytes (owned by the reply from now on).
     * @return a bulk string of them.
     */
    public static FullBulkStringRedisMessage bulk(final byte[] bytes)
    {
        return new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(bytes));
    }

    /**
     * @param text a status, e.g. a field's name in RedisBloom's INFO.
     * @return a simple string.
     */
    public static SimpleStringRedisMessage simple(final String text)
    {
        return new SimpleStringRedisMessage(text);
    }

    /**
     * @param items the elements.
     * @return an array of them (it owns them: releasing it releases them).
     */
    public static ArrayRedisMessage array(final List<RedisMessage> items)
    {
        return new ArrayRedisMessage(items);
    }

    /**
     * @param key a key ({@link #key}: one char per byte).
     * @return a bulk string of its bytes.
     */
    public static FullBulkStringRedisMessage keyBulk(final String key)
    {
        return new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(key.getBytes(StandardCharsets.ISO_8859_1)));
    }

    /**
     * @param value an integer.
     * @return a RESP integer.
     */
    public static IntegerRedisMessage integer(final long value)
    {
        return value == 0 ? ZERO : value == 1 ? ONE : new IntegerRedisMessage(value);
    }

    /**
     * @param texts status strings, as Redis gives command flags.
     * @return an array of simple strings.
     */
    public static ArrayRedisMessage statuses(final List<String> texts)
    {
        final List<RedisMessage> values = new ArrayList<>(texts.size());
        texts.forEach(t -> values.add(new SimpleStringRedisMessage(t)));
        return new ArrayRedisMessage(values);
    }

    /**
     * @param value a boolean.
     * @return RESP3 {@code #t}/{@code #f}, or RESP2 {@code :1}/{@code :0} ({@link ReplyTypes}).
     */
    public static RedisMessage bool(final boolean value)
    {
        return value ? ReplyTypes.TRUE : ReplyTypes.FALSE;
    }

    /** @return RESP3 null ({@code _}), or RESP2's null bulk string ({@code $-1}). */
    public static RedisMessage nil()
    {
        return ReplyTypes.NIL;
    }

    /** @return RESP3 null ({@code _}), or RESP2's null array ({@code *-1}), for a missing array. */
    public static RedisMessage nilArray()
    {
        return ReplyTypes.NIL_ARRAY;
    }

    /**
     * @param value a double.
     * @return RESP3 {@code ,value}, or RESP2's bulk string of it (as Redis sends ZSCORE).
     */
    public static RedisMessage dbl(final double value)
    {
        return new ReplyTypes.Double(value);
    }

    /**
     * @param keysAndValues key, value, key, value...
     * @return a RESP3 map, or RESP2's flat array of keys and values.
     */
    public static RedisMessage map(final List<RedisMessage> keysAndValues)
    {
        return new ReplyTypes.MapMessage(keysAndValues);
    }

    /**
     * @param text text for people (INFO, CLIENT LIST).
     * @return a RESP3 verbatim string ({@code =...txt:}), or a RESP2 bulk string.
     */
    public static RedisMessage verbatim(final String text)
    {
        return new ReplyTypes.Verbatim("txt", text);
    }

    /**
     * A plain value as a reply, so a command can build its fields once for both protocols (BF.INFO, CF.INFO).
     *
     * @param value a Long or Integer (integer), String (bulk string), Double ({@link #dbl}), Boolean
     *              ({@link #bool}), or null ({@link #nil}).
     * @return the reply.
     */
    public static RedisMessage value(final Object value)
    {
        if (value == null)
        {
            return nil();
        }
        if (value instanceof Long || value instanceof Integer)
        {
            return integer(((Number)value).longValue());
        }
        if (value instanceof Double number)
        {
            return dbl(number);
        }
        if (value instanceof Boolean bool)
        {
            return bool(bool);
        }
        if (value instanceof String text)
        {
            return bulk(text);
        }
        throw new IllegalArgumentException("no reply for a " + value.getClass().getSimpleName());
    }

    /**
     * A map of named plain values ({@link #value}): RESP3 map, RESP2 flat array (BF.INFO, CF.INFO, HELLO).
     *
     * @param fields names and values, in order.
     * @return the reply.
     */
    public static RedisMessage fields(final List<? extends java.util.Map.Entry<String, ?>> fields)
    {
        final List<RedisMessage> keysAndValues = new ArrayList<>(fields.size() * 2);
        for (final java.util.Map.Entry<String, ?> field : fields)
        {
            keysAndValues.add(bulk(field.getKey()));
            keysAndValues.add(value(field.getValue()));
        }
        return map(keysAndValues);
    }

    /** @return an empty array. */
    public static ArrayRedisMessage empty()
    {
        return new ArrayRedisMessage(new ArrayList<>());
    }

    /**
     * @param arg an argument.
     * @return it as a key (ISO-8859-1: every byte one char, so every key round-trips).
     */
    public static String key(final ByteBuf arg)
    {
        return arg.toString(StandardCharsets.ISO_8859_1);
    }

    /**
     * @param arg an argument.
     * @return it as lower-case UTF-8 text: a subcommand or an option.
     */
    public static String word(final ByteBuf arg)
    {
        return arg.toString(StandardCharsets.UTF_8).toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * @param arg   an argument.
     * @param error the reply when it is not an integer.
     * @return its value.
     * @throws RespError when it is not an integer.
     */
    public static long integer(final ByteBuf arg, final String error)
    {
        return integer(arg.toString(StandardCharsets.US_ASCII), error);
    }

    /**
     * @param text  text.
     * @param error the reply when it is not an integer.
     * @return its value.
     * @throws RespError when it is not an integer.
     */
    public static long integer(final String text, final String error)
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
