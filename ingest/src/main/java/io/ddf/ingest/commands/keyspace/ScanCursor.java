package io.ddf.ingest.commands.keyspace;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * SCAN's cursor without server state: keys are visited in the order of a fixed 63-bit hash of their bytes, and the
 * cursor is the hash of the next key to visit (0 once done). A key present for the whole iteration is returned,
 * whatever is created or deleted meanwhile, because its place in the order never moves (Redis's guarantee); keys
 * of equal hash are returned in one page, so none is skipped between pages.
 */
final class ScanCursor
{
    /** Redis's default COUNT. */
    static final int DEFAULT_COUNT = 10;

    /**
     * @param keys the keys of this page.
     * @param next the next cursor, 0 when the iteration is complete.
     */
    record Page(List<String> keys, long next)
    {
    }

    private ScanCursor()
    {
    }

    /**
     * @param all    every key now.
     * @param cursor 0 to start, else the previous page's {@code next}.
     * @param count  keys wanted (a page may hold more, to finish a run of equal hashes).
     * @return the page.
     */
    static Page page(final Collection<String> all, final long cursor, final int count)
    {
        final List<String> order = new ArrayList<>();
        for (final String key : all)
        {
            if (hash(key) >= cursor)
            {
                order.add(key);
            }
        }
        order.sort(Comparator.comparingLong(ScanCursor::hash).thenComparing(Comparator.naturalOrder()));
        int end = Math.min(count, order.size());
        while (end < order.size() && hash(order.get(end)) == hash(order.get(end - 1)))
        {
            end++;
        }
        return new Page(List.copyOf(order.subList(0, end)), end < order.size() ? hash(order.get(end)) : 0);
    }

    /** FNV-1a over the key's bytes, in [1, 2^63): never 0, which ends an iteration. */
    static long hash(final String key)
    {
        long h = 0xcbf29ce484222325L;
        for (final byte b : key.getBytes(StandardCharsets.ISO_8859_1))
        {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return (h >>> 1) | 1;
    }
}
