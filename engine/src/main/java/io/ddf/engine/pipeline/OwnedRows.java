package io.ddf.engine.pipeline;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;

/**
 * The one place where a handler updates the rows it owns (the fused handler owns every row; an inserter the
 * partitions routed to it, in ring order; a filter that is not partitioned belongs wholly to inserter 0), so that
 * no other thread writes them while it does. That is exactly the promise of {@code FilterBuilder.singleWriter()}
 * (one thread at a time per partition, handed over with a happens-before edge, which the ring's sequences give):
 * a filter built with it takes its single-writer code path here (plain loads and release stores, no locked
 * instruction), one built without it the shared path; the verdicts are the same either way. The pipeline needs
 * no switch of its own: the filter's mode decides, and this class is where a pipeline-side one would go.
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
     * A plain read of the element's row, so that its cache miss is under way before the row is updated
     * ({@link DuplicateFilter#touchHash}: one load, where a {@code containsHash} would also derive the fingerprint,
     * search the row, and for a wide row take its lock).
     *
     * @param filter the filter.
     * @param hash   the element's hash.
     * @return the word read (a value to sink, so the read is not optimised away).
     */
    static long touch(final DuplicateFilter filter, final long hash)
    {
        return filter.touchHash(hash);
    }
}
