package io.ddf.bench.capacity;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.Verdict;
import io.ddf.persistence.FilterFileDescriptor;

/** A ddf filter in an anonymous file; its bytes are the file's: header and table. */
final class DdfCandidate implements Candidate
{
    private final String name;
    private final DuplicateFilter filter;
    private final long bytes;

    DdfCandidate(final String name, final FilterBuilder builder)
    {
        this.name = name;
        this.bytes = FilterFileDescriptor.HEADER_LENGTH + builder.parameters().tableBytes();
        this.filter = builder.create();
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public boolean add(final long item)
    {
        return filter.stream(item) == Verdict.UNSEEN;
    }

    @Override
    public boolean contains(final long item)
    {
        return filter.contains(item);
    }

    @Override
    public long bytes()
    {
        return bytes;
    }

    @Override
    public void close()
    {
        filter.close();
    }
}
