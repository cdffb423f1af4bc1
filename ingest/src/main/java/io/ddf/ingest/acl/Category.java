package io.ddf.ingest.acl;

import java.util.Locale;

/**
 * Redis's ACL command categories ({@code +@read}, {@code -@admin}, ...), in the order {@code ACL CAT} lists them,
 * then the two RedisBloom adds for its commands ({@code @bloom}, {@code @cuckoo}). {@code @all} is not a category
 * but a rule ({@link CommandRules}).
 */
public enum Category
{
    KEYSPACE, READ, WRITE, SET, SORTEDSET, LIST, HASH, STRING, BITMAP, HYPERLOGLOG, GEO, STREAM, PUBSUB, ADMIN, FAST,
    SLOW, BLOCKING, DANGEROUS, CONNECTION, TRANSACTION, SCRIPTING, BLOOM, CUCKOO;

    private final String word = name().toLowerCase(Locale.ROOT);

    /** @return the name as ACL rules and ACL CAT spell it, lower case and without the {@code @}. */
    public String word()
    {
        return word;
    }

    /**
     * @param name a category name, any case, without the {@code @}.
     * @return the category, or null when there is none of that name.
     */
    public static Category find(final String name)
    {
        final String lower = name.toLowerCase(Locale.ROOT);
        for (final Category c : values())
        {
            if (c.word.equals(lower))
            {
                return c;
            }
        }
        return null;
    }
}
