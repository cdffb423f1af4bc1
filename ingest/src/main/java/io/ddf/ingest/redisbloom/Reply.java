package io.ddf.ingest.redisbloom;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** An answer, before the protocol: what RedisBloom replies, as values. */
public sealed interface Reply
{
    /** {@code +OK}. */
    Reply OK = new Simple("OK");
    /** A null (RESP2 nil bulk). */
    Reply NIL = new Nil();

    /**
     * An integer.
     *
     * @param value the integer.
     */
    record Int(long value) implements Reply
    {
    }

    /**
     * A simple string.
     *
     * @param text the text.
     */
    record Simple(String text) implements Reply
    {
    }

    /**
     * An error, its text as RedisBloom writes it (with or without the {@code ERR} prefix).
     *
     * @param text the text.
     */
    record Error(String text) implements Reply
    {
    }

    /**
     * A bulk string.
     *
     * @param bytes the bytes.
     */
    record Bulk(byte[] bytes) implements Reply
    {
        /**
         * @param text text.
         * @return its UTF-8 bytes as a bulk string.
         */
        public static Bulk of(final String text)
        {
            return new Bulk(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** A null. */
    record Nil() implements Reply
    {
    }

    /**
     * An array; {@code map} marks RedisBloom's INFO replies, a map in RESP3.
     *
     * @param items the items.
     * @param map   whether a RESP3 client gets a map (pairs of items).
     */
    record Array(List<Reply> items, boolean map) implements Reply
    {
        /**
         * @param items the items.
         * @return an array (not a map).
         */
        public static Array of(final List<Reply> items)
        {
            return new Array(items, false);
        }
    }

    /**
     * @param value an integer.
     * @return it as a reply.
     */
    static Reply integer(final long value)
    {
        return new Int(value);
    }

    /**
     * @param text an error text.
     * @return it as a reply.
     */
    static Reply error(final String text)
    {
        return new Error(text);
    }
}
