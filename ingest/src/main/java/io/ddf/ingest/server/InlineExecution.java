package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;
import io.ddf.engine.Operation;
import org.agrona.DirectBuffer;

/**
 * Judges a connection's elements on its event loop, where they were decoded ({@code serve --execution inline}):
 * the filter is called in place, as Redis executes a command, instead of the element being copied into the
 * pipeline's ring and its verdict handed back by another thread. Several event loops may stream into one filter
 * at once: the daemon's filters are built shared (rows updated by compare-and-swap, counters striped per thread),
 * and the caller holds the filter's {@link FilterStore.Lease}, so the filter is not closed under it.
 *
 * <p>The verdict is returned only once {@code stream} has returned, i.e. once the element's row is stored in the
 * mapping: a reply written from it survives a {@code kill -9}. The connection hands it the element's bytes where
 * the decoder left them ({@code Connection.bytesOf}, the same view the pipeline copies from); allocates nothing.
 */
final class InlineExecution
{
    private InlineExecution()
    {
    }

    /**
     * @param filter    the filter (leased by the caller).
     * @param operation stream (judge and record) or contains (judge only).
     * @param element   the element's bytes, from offset 0.
     * @param length    the element's length.
     * @return true when the filter answers DUPLICATE (stream) or holds the element (contains).
     */
    static boolean duplicate(final DuplicateFilter filter, final Operation operation, final DirectBuffer element,
        final int length)
    {
        final long hash = filter.hash(element, 0, length);
        return operation == Operation.STREAM ? filter.streamHash(hash) == Verdict.DUPLICATE :
            filter.containsHash(hash);
    }
}
