package io.ddf.ingest;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.Verdict;
import org.agrona.DirectBuffer;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * An exact, heap-backed stand-in for a filter, to test the command line's plumbing without the engine: it judges
 * byte-array elements by their bytes (overriding the default {@code stream}/{@code contains} over a hash); every
 * other form is unsupported.
 */
final class ExactFilter implements DuplicateFilter
{
    private final Set<ByteBuffer> seen = new HashSet<>();
    private long elements;
    private long duplicates;
    private int closes;

    @Override
    public Verdict stream(final byte[] bytes, final int offset, final int length)
    {
        if (closes > 0)
        {
            throw new IllegalStateException("streamed after close");
        }
        elements++;
        if (seen.add(ByteBuffer.wrap(Arrays.copyOfRange(bytes, offset, offset + length))))
        {
            return Verdict.UNSEEN;
        }
        duplicates++;
        return Verdict.DUPLICATE;
    }

    @Override
    public long hash(final long element)
    {
        throw new UnsupportedOperationException();
    }

    @Override
    public long hash(final byte[] bytes, final int offset, final int length)
    {
        throw new UnsupportedOperationException();
    }

    @Override
    public long hash(final DirectBuffer buffer, final int offset, final int length)
    {
        throw new UnsupportedOperationException();
    }

    @Override
    public long hash(final CharSequence text)
    {
        throw new UnsupportedOperationException();
    }

    @Override
    public Verdict streamHash(final long hash)
    {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean containsHash(final long hash)
    {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean partitioned()
    {
        return false;
    }

    @Override
    public long partition(final long hash)
    {
        return 0;
    }

    @Override
    public boolean contains(final byte[] bytes, final int offset, final int length)
    {
        return seen.contains(ByteBuffer.wrap(Arrays.copyOfRange(bytes, offset, offset + length)));
    }

    @Override
    public FilterKind kind()
    {
        return FilterKind.QHT;
    }

    @Override
    public FilterParameters parameters()
    {
        throw new UnsupportedOperationException();
    }

    @Override
    public long elements()
    {
        return elements;
    }

    @Override
    public long duplicates()
    {
        return duplicates;
    }

    @Override
    public Path path()
    {
        return null;
    }

    @Override
    public void flush()
    {
    }

    @Override
    public void close()
    {
        closes++;
    }

    /** @return how many times close was called. */
    int closes()
    {
        return closes;
    }
}
