package io.ddf.ingest.redisbloom;

import io.ddf.ingest.store.ScalingRegistry;

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
     * A yes or no: the integer 1 or 0 of RedisBloom 2.4, a boolean in RESP3 as RedisBloom 2.6+ answers its
     * verdicts (BF.ADD, BF.EXISTS, CF.ADD, CF.DEL...).
     *
     * @param value the answer.
     */
    record Bool(boolean value) implements Reply
    {
    }

    /**
     * The command needs the key's filter made first. Making a file takes time (a large filter's blocks are allocated
     * on disk), so whoever runs the command makes it where that blocks nobody, then answers {@code reply}, or runs the
     * command again when {@code reply} is null (BF.ADD on a missing key: the second run finds the filter).
     *
     * @param key       the key.
     * @param maker     makes the filter, given its file.
     * @param exclusive whether an existing key is refused ({@code ERR item exists}: BF.RESERVE, a dump's header)
     *                  rather than used (a filter made on first use, which another client may have made meanwhile).
     * @param reply     the reply once made, or null to run the command again.
     * @param refused   the reply to a failure of {@code maker}.
     */
    record Create(String key, ScalingRegistry.Maker maker, boolean exclusive, Reply reply,
        java.util.function.Function<RuntimeException, Reply> refused) implements Reply
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

    /** A yes. */
    Reply TRUE = new Bool(true);
    /** A no. */
    Reply FALSE = new Bool(false);

    /**
     * @param value a yes or no.
     * @return it as a reply.
     */
    static Reply bool(final boolean value)
    {
        return value ? TRUE : FALSE;
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
