package io.ddf.ingest.resp;

import io.netty.handler.codec.redis.RedisMessage;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCountUtil;

import java.util.List;

/**
 * The replies whose RESP type depends on the connection's protocol, beside Netty's RESP2 messages (simple string,
 * error, integer, bulk string, array, which both protocols share). Commands make them without knowing the protocol
 * ({@link Replies}); the {@link ReplyWriter} writes each in the protocol in force at its place in the order: a
 * boolean is RESP3's {@code #t}/{@code #f} or RESP2's {@code :1}/{@code :0} (as RedisBloom answers in each), a nil
 * RESP3's {@code _} or RESP2's {@code $-1} (a nil array {@code *-1}), a double RESP3's {@code ,1.5} or RESP2's bulk
 * string of it (as Redis sends ZSCORE), a map RESP3's {@code %} or RESP2's flat array of keys and values, a verbatim
 * string RESP3's {@code =} or RESP2's bulk string.
 */
final class ReplyTypes
{
    /** A missing value: RESP3 {@code _}, RESP2 {@code $-1}. */
    static final RedisMessage NIL = new RedisMessage()
    {
        @Override
        public String toString()
        {
            return "NIL";
        }
    };
    /** A missing array: RESP3 {@code _}, RESP2 {@code *-1}. */
    static final RedisMessage NIL_ARRAY = new RedisMessage()
    {
        @Override
        public String toString()
        {
            return "NIL_ARRAY";
        }
    };
    /** RESP3 {@code #t}, RESP2 {@code :1}. */
    static final Bool TRUE = new Bool(true);
    /** RESP3 {@code #f}, RESP2 {@code :0}. */
    static final Bool FALSE = new Bool(false);

    private ReplyTypes()
    {
    }

    /** @param value a boolean. */
    record Bool(boolean value) implements RedisMessage
    {
    }

    /** @param value a double ({@code ,1.5}, {@code ,inf}, {@code ,nan} in RESP3). */
    record Double(double value) implements RedisMessage
    {
    }

    /**
     * Text for people (INFO, CLIENT LIST): a RESP3 verbatim string, a bulk string in RESP2.
     *
     * @param format three characters, e.g. {@code txt}.
     * @param text   the text.
     */
    record Verbatim(String format, String text) implements RedisMessage
    {
    }

    /**
     * A map: keys and values alternate. Owns its entries as an array owns its children: releasing the map releases
     * them.
     */
    static final class MapMessage extends AbstractReferenceCounted implements RedisMessage
    {
        private final List<RedisMessage> keysAndValues;

        /** @param keysAndValues key, value, key, value... (an even number). */
        MapMessage(final List<RedisMessage> keysAndValues)
        {
            if ((keysAndValues.size() & 1) != 0)
            {
                throw new IllegalArgumentException("a map needs a value for every key");
            }
            this.keysAndValues = keysAndValues;
        }

        /** @return key, value, key, value... */
        List<RedisMessage> keysAndValues()
        {
            return keysAndValues;
        }

        @Override
        protected void deallocate()
        {
            keysAndValues.forEach(ReferenceCountUtil::release);
        }

        @Override
        public MapMessage touch(final Object hint)
        {
            keysAndValues.forEach(m -> ReferenceCountUtil.touch(m, hint));
            return this;
        }
    }

    /** RESP3's double: {@code inf}, {@code -inf}, {@code nan}, else the shortest text that reads back equal. */
    static String format(final double value)
    {
        if (java.lang.Double.isNaN(value))
        {
            return "nan";
        }
        if (java.lang.Double.isInfinite(value))
        {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15)
        {
            return Long.toString((long)value);
        }
        return java.lang.Double.toString(value);
    }
}
