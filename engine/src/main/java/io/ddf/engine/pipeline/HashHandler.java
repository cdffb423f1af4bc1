package io.ddf.engine.pipeline;

import com.lmax.disruptor.EventHandler;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.hash.Mix;

/**
 * Hashing handler {@code index} of {@code count}: hashes the elements of the sequences {@code seq % count == index}
 * (in the Disruptor's batches) and picks the insertion handler that owns each element's partition.
 *
 * <p>Routing: for a {@link DuplicateFilter#partitioned() partitioned} filter, inserter
 * {@code reduce(mix64(partition + salt(filter)), inserters)}, where the salt mixes the filter's identity hash so
 * that two filters in one pipeline spread their rows differently; every element of one partition goes to one
 * inserter. A filter that is not partitioned goes wholly to inserter 0.
 */
final class HashHandler implements EventHandler<PipelineEvent>
{
    private final String name;
    private final int index;
    private final int count;
    private final int inserters;

    private DuplicateFilter lastFilter;
    private boolean lastPartitioned;
    private long lastSalt;

    HashHandler(final int index, final int count, final int inserters)
    {
        this.name = "ddf-pipeline-hash-" + index;
        this.index = index;
        this.count = count;
        this.inserters = inserters;
    }

    @Override
    public void onStart()
    {
        Thread.currentThread().setName(name);
    }

    @Override
    public void onShutdown()
    {
        lastFilter = null;
    }

    @Override
    public void onEvent(final PipelineEvent event, final long sequence, final boolean endOfBatch)
    {
        if ((count > 1 && sequence % count != index) || event.failure != null)
        {
            return;
        }
        final DuplicateFilter filter = event.filter;
        final long hash = event.hashed ? event.hash : filter.hash(event.buffer, 0, event.length);
        event.hash = hash;
        if (inserters == 1)
        {
            event.inserter = 0;
            return;
        }
        if (filter != lastFilter)
        {
            lastFilter = filter;
            lastPartitioned = filter.partitioned();
            lastSalt = Mix.mix64(System.identityHashCode(filter) * Mix.GOLDEN_GAMMA);
        }
        event.inserter = lastPartitioned ?
            (int)Mix.reduce(Mix.mix64(filter.partition(hash) + lastSalt), inserters) : 0;
    }
}
