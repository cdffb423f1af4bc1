package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;

/**
 * The log line of each filter created, deleted or refused: an operator reading the daemon's log can tell which
 * key holds which file and why a creation failed, without a client to ask.
 */
final class FilterEvents
{
    private FilterEvents()
    {
    }

    /**
     * @param key    the key.
     * @param filter its new filter.
     * @return e.g. {@code ddf: created filter 'clicks' (fifo-bloom, 1198 bytes, capacity 1000)}.
     */
    static String created(final String key, final DuplicateFilter filter)
    {
        final Long capacity = BloomInfo.capacity(filter.parameters());
        return "ddf: created filter '" + KeyNames.display(key) + "' (" + describe(filter) +
            (capacity != null ? ", capacity " + capacity : "") + ")";
    }

    /**
     * @param key    the key.
     * @param filter its filter, being deleted.
     * @return e.g. {@code ddf: deleted filter 'clicks' (fifo-bloom, 1198 bytes)}.
     */
    static String deleted(final String key, final DuplicateFilter filter)
    {
        return "ddf: deleted filter '" + KeyNames.display(key) + "' (" + describe(filter) + ")";
    }

    /**
     * @param key    the key.
     * @param reason the error the client got.
     * @return e.g. {@code ddf: refused filter 'clicks': ERR item exists}.
     */
    static String refused(final String key, final String reason)
    {
        return "ddf: refused filter '" + KeyNames.display(key) + "': " + reason;
    }

    private static String describe(final DuplicateFilter filter)
    {
        return filter.parameters().kind().cliName() + ", " + filter.parameters().tableBytes() + " bytes";
    }
}
