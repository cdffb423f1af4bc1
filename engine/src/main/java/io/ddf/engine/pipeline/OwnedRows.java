package io.ddf.engine.pipeline;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;

/**
 * The one place where a handler updates the rows it owns (the fused handler owns every row; an inserter the
 * partitions routed to it), so that no other thread writes them while it does. That is the single-writer promise
 * of {@code FilterBuilder.singleWriter()} (issue 11, being added on the {@code hotpath} branch): once it exists,
 * {@link #stream} switches to its code path (plain loads, release stores, owner-local counters) here and nowhere
 * else. Until then it is the shared path, whose verdicts are the same.
 */
final class OwnedRows
{
    private OwnedRows()
    {
    }

    /**
     * @param filter the filter, whose row of {@code hash} the calling handler alone updates.
     * @param hash   the element's hash.
     * @return the verdict of {@code filter.stream} for the element.
     */
    static Verdict stream(final DuplicateFilter filter, final long hash)
    {
        return filter.streamHash(hash);
    }

    /**
     * A plain read of the element's row, so that its cache miss is under way before the row is updated.
     *
     * @param filter the filter.
     * @param hash   the element's hash.
     * @return 1 when the filter holds the element (a value to sink, so the read is not optimised away).
     */
    static int touch(final DuplicateFilter filter, final long hash)
    {
        return filter.containsHash(hash) ? 1 : 0;
    }
}
