package io.ddf.ingest.store;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.scaling.BloomChain;
import io.ddf.engine.scaling.ScalingFilter;

/**
 * The log line of each filter created, deleted or refused: an operator reading the daemon's log can tell which
 * key holds which file and why a creation failed, without a client to ask.
 */
public final class FilterEvents
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
        final Long capacity = ReservedCapacity.of(filter.parameters());
        return "ddf: created filter '" + KeyNames.display(key) + "' (" + describe(filter) +
            (capacity != null ? ", capacity " + capacity : "") + ")";
    }

    /**
     * @param key    the key.
     * @param filter its new filter that grows.
     * @return e.g. {@code ddf: created filter 'clicks' (scaling bloom, ddf layout, 4096 bytes, capacity 100)}.
     */
    static String created(final String key, final ScalingFilter filter)
    {
        return "ddf: created filter '" + KeyNames.display(key) + "' (" + describe(filter) + ")";
    }

    /**
     * @param filter a filter that grows.
     * @return its kind, layout and size, for the log.
     */
    static String describe(final ScalingFilter filter)
    {
        if (filter instanceof BloomChain chain)
        {
            return "scaling bloom, " + (chain.redisBloomLayout() ? "redisbloom" : "ddf") + " layout, " +
                chain.fileBytes() + " bytes, capacity " + chain.capacity();
        }
        return "redisbloom cuckoo, " + filter.fileBytes() + " bytes";
    }

    /**
     * @param key    the key of a filter with a window of time, just opened.
     * @param window its window, as the open left it.
     * @return e.g. {@code ddf: filter 'clicks' (window 1d, 2 slices): 3 generations expired while closed (the
     *         filter's time was 2026-11-28T07:00:00Z, 1d2h before the open)}.
     */
    static String windowAtOpen(final String key, final io.ddf.engine.TimeWindow window)
    {
        return "ddf: filter '" + KeyNames.display(key) + "' (window " + io.ddf.engine.TimeWindow.format(
            window.window()) + ", " + window.slices() + " slices): " + window.atOpen().describe();
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
     * @param reason why (the store's words, or the text of the error the client got for a refused request).
     * @return e.g. {@code ddf: refused filter 'clicks': item exists}.
     */
    public static String refused(final String key, final String reason)
    {
        return "ddf: refused filter '" + KeyNames.display(key) + "': " + reason;
    }

    private static String describe(final DuplicateFilter filter)
    {
        return filter.parameters().kind().cliName() + ", " + filter.parameters().tableBytes() + " bytes";
    }
}
