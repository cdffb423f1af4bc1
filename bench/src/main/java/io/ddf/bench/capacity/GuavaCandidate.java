package io.ddf.bench.capacity;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import io.ddf.bench.jmh.GuavaSizing;

/** Guava's BloomFilter created for the capacity and error rate: fixed memory, never forgets, saturates. */
final class GuavaCandidate implements Candidate
{
    private final BloomFilter<Long> filter;
    private final long bytes;

    GuavaCandidate(final long capacity, final double errorRate)
    {
        filter = BloomFilter.create(Funnels.longFunnel(), capacity, errorRate);
        bytes = GuavaSizing.bitSize(filter) / 8;
    }

    @Override
    public String name()
    {
        return "Guava BloomFilter";
    }

    @Override
    public boolean add(final long item)
    {
        return filter.put(item);
    }

    @Override
    public boolean contains(final long item)
    {
        return filter.mightContain(item);
    }

    @Override
    public long bytes()
    {
        return bytes;
    }

    @Override
    public void close()
    {
    }
}
