package io.ddf.bench.accuracy;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.Verdict;
import org.agrona.DirectBuffer;

import java.nio.file.Path;

/**
 * Gives a filter with a window of time a steady rate: the i-th element streamed (from 0) goes in with the time
 * {@code start + i · perItemMillis} through {@link DuplicateFilter#stream(long, long)} (event time), so a stream
 * position is a time and n elements are n · perItemMillis of it. A spec asks for it with {@code per-item-ms=X}.
 */
final class SteadyTime implements DuplicateFilter
{
    /** The first element's time: any positive epoch (2026-01-01T00:00Z), so that no time is 0. */
    static final long START = 1_767_225_600_000L;

    private final DuplicateFilter filter;
    private final long perItemMillis;
    private long position;

    /**
     * @param filter        a filter that takes times.
     * @param perItemMillis time between two elements, at least 1.
     */
    SteadyTime(final DuplicateFilter filter, final long perItemMillis)
    {
        if (perItemMillis < 1)
        {
            throw new IllegalArgumentException("per-item-ms must be at least 1, got " + perItemMillis);
        }
        this.filter = filter;
        this.perItemMillis = perItemMillis;
    }

    /** @return the filter fed. */
    DuplicateFilter filter()
    {
        return filter;
    }

    private long next()
    {
        return START + perItemMillis * position++;
    }

    @Override
    public Verdict stream(final long element)
    {
        return filter.stream(element, next());
    }

    @Override
    public Verdict streamHash(final long hash)
    {
        return filter.streamHash(hash, next());
    }

    @Override
    public boolean containsHash(final long hash)
    {
        return filter.containsHash(hash);
    }

    @Override
    public long hash(final long element)
    {
        return filter.hash(element);
    }

    @Override
    public long hash(final byte[] bytes, final int offset, final int length)
    {
        return filter.hash(bytes, offset, length);
    }

    @Override
    public long hash(final DirectBuffer buffer, final int offset, final int length)
    {
        return filter.hash(buffer, offset, length);
    }

    @Override
    public long hash(final CharSequence text)
    {
        return filter.hash(text);
    }

    @Override
    public boolean partitioned()
    {
        return filter.partitioned();
    }

    @Override
    public long partition(final long hash)
    {
        return filter.partition(hash);
    }

    @Override
    public FilterKind kind()
    {
        return filter.kind();
    }

    @Override
    public FilterParameters parameters()
    {
        return filter.parameters();
    }

    @Override
    public long elements()
    {
        return filter.elements();
    }

    @Override
    public long duplicates()
    {
        return filter.duplicates();
    }

    @Override
    public Path path()
    {
        return filter.path();
    }

    @Override
    public void flush()
    {
        filter.flush();
    }

    @Override
    public void close()
    {
        filter.close();
    }
}
