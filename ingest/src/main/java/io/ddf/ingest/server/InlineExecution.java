package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;
import io.ddf.engine.pipeline.Operation;
import io.netty.buffer.ByteBuf;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Judges a connection's elements on its event loop, where they were decoded ({@code serve --execution inline}):
 * the filter is called in place, as Redis executes a command, instead of the element being copied into the
 * pipeline's ring and its verdict handed back by another thread. Several event loops may stream into one filter
 * at once: the daemon's filters are built shared (rows updated by compare-and-swap, counters striped per thread),
 * and the caller holds the filter's {@link FilterStore.Lease}, so the filter is not closed under it.
 *
 * <p>The verdict is returned only once {@code stream} has returned, i.e. once the element's row is stored in the
 * mapping: a reply written from it survives a {@code kill -9}. One per connection (it holds the connection's
 * scratch buffers); allocates nothing per element.
 */
final class InlineExecution
{
    /** Wraps a direct buffer's memory, so the filter reads the element where the decoder left it. */
    private final UnsafeBuffer direct = new UnsafeBuffer(0, 0);
    /** Holds an element of a buffer that is neither on the heap nor direct (composite). */
    private final byte[] scratch;

    /** @param maxElementBytes the longest element judged. */
    InlineExecution(final int maxElementBytes)
    {
        this.scratch = new byte[maxElementBytes];
    }

    /**
     * @param filter    the filter (leased by the caller).
     * @param operation stream (judge and record) or contains (judge only).
     * @param item      the element's bytes (not consumed), at most the longest element long.
     * @return true when the filter answers DUPLICATE (stream) or holds the element (contains).
     */
    boolean duplicate(final DuplicateFilter filter, final Operation operation, final ByteBuf item)
    {
        final int length = item.readableBytes();
        final long hash;
        if (item.hasArray())
        {
            hash = filter.hash(item.array(), item.arrayOffset() + item.readerIndex(), length);
        }
        else if (item.hasMemoryAddress())
        {
            direct.wrap(item.memoryAddress() + item.readerIndex(), length);
            hash = filter.hash(direct, 0, length);
        }
        else
        {
            item.getBytes(item.readerIndex(), scratch, 0, length);
            hash = filter.hash(scratch, 0, length);
        }
        return operation == Operation.STREAM ? filter.streamHash(hash) == Verdict.DUPLICATE :
            filter.containsHash(hash);
    }
}
