package io.ddf.ingest.server;

import io.netty.handler.codec.redis.RedisMessage;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCountUtil;

import java.util.List;

/**
 * The RESP3 reply types Netty's RESP2 codec lacks, written by {@link RespEncoder}. Commands never make them
 * directly: {@link Replies} picks them or their RESP2 equivalent by the connection's protocol.
 */
final class Resp3
{
    /** RESP3's null ({@code _}). */
    static final RedisMessage NULL = new RedisMessage()
    {
        @Override
        public String toString()
        {
            return "Resp3.NULL";
        }
    };
    /** RESP3's true ({@code #t}). */
    static final Bool TRUE = new Bool(true);
    /** RESP3's false ({@code #f}). */
    static final Bool FALSE = new Bool(false);

    private Resp3()
    {
    }

    /** @param value a boolean ({@code #t} / {@code #f}). */
    record Bool(boolean value) implements RedisMessage
    {
    }

    /** @param value a double ({@code ,1.5}, {@code ,inf}, {@code ,nan}). */
    record Double(double value) implements RedisMessage
    {
    }

    /**
     * A verbatim string ({@code =}), as Redis sends INFO and CLIENT LIST in RESP3.
     *
     * @param format three characters, e.g. {@code txt}.
     * @param text   the text.
     */
    record Verbatim(String format, String text) implements RedisMessage
    {
    }

    /**
     * A map ({@code %}): keys and values alternate. Owns its entries as an array owns its children: releasing the
     * map releases them.
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
}
