package io.ddf.engine;

import io.ddf.persistence.FilterFile;
import org.agrona.DirectBuffer;

import java.nio.file.Path;

/**
 * A filter on a mapped file: hashes the element in whichever form it comes, lets the kind's {@link FilterCore}
 * decide and update, and counts the verdicts in the file's state region.
 */
final class MappedFilter implements DuplicateFilter
{
    private final FilterFile file;
    private final FilterParameters parameters;
    private final ElementHasher hasher;
    private final FilterCore core;
    private final FilterCounters counters;
    /** The file from the state region to the end of the table, as {@link FilterWords} describes it. */
    private final MappedWords mutableWords;
    private boolean closed;

    MappedFilter(final FilterFile file, final FilterParameters parameters, final FilterCore core)
    {
        this.file = file;
        this.parameters = parameters;
        this.core = core;
        this.hasher = ElementHasher.of(parameters.hashAlgorithm(), parameters.seed(), file.spec().key());
        this.counters = new FilterCounters(file.stateAddress(), file.stateLength());
        this.mutableWords = new MappedWords(file.stateAddress(),
            (file.tableAddress() + file.tableLength() - file.stateAddress()) / Long.BYTES);
    }

    /** @return the kind's algorithm (for tests that look inside). */
    FilterCore core()
    {
        return core;
    }

    /** @return the number of mutable words ({@link FilterWords}). */
    long mutableWordCount()
    {
        checkOpen();
        return mutableWords.words();
    }

    /**
     * @param index a mutable word's index ({@link FilterWords}).
     * @return the word, read plainly.
     */
    long mutableWord(final long index)
    {
        checkOpen();
        return mutableWords.getLongPlain(index);
    }

    /**
     * @param index a mutable word's index ({@link FilterWords}).
     * @param value stored plainly.
     */
    void putMutableWord(final long index, final long value)
    {
        checkOpen();
        mutableWords.putLongPlain(index, value);
    }

    /**
     * @param other another filter.
     * @param from  the first index to compare.
     * @return the first index at or after {@code from} where the two filters' mutable words differ, -1 if none.
     */
    long mutableWordsMismatch(final MappedFilter other, final long from)
    {
        checkOpen();
        other.checkOpen();
        final MappedWords mine = mutableWords;
        final MappedWords theirs = other.mutableWords;
        final long common = Math.min(mine.words(), theirs.words());
        for (long i = from; i < common; i++)
        {
            if (mine.getLongPlain(i) != theirs.getLongPlain(i))
            {
                return i;
            }
        }
        return mine.words() == theirs.words() ? -1 : Math.max(from, common);
    }

    /** @return the element hasher (for tests that look inside). */
    ElementHasher hasher()
    {
        return hasher;
    }

    @Override
    public long hash(final DirectBuffer buffer, final int offset, final int length)
    {
        return hasher.hash(buffer, offset, length);
    }

    @Override
    public boolean partitioned()
    {
        return core.partitioned();
    }

    @Override
    public long partition(final long hash)
    {
        return core.partition(hash);
    }

    @Override
    public Verdict streamHash(final long hash)
    {
        checkOpen();
        final boolean duplicate = core.stream(hash);
        counters.record(hash, duplicate);
        return duplicate ? Verdict.DUPLICATE : Verdict.UNSEEN;
    }

    @Override
    public boolean containsHash(final long hash)
    {
        checkOpen();
        return core.contains(hash);
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("filter is closed");
        }
    }

    @Override
    public Verdict stream(final long element)
    {
        return streamHash(hasher.hash(element));
    }

    @Override
    public Verdict stream(final byte[] bytes, final int offset, final int length)
    {
        return streamHash(hasher.hash(bytes, offset, length));
    }

    @Override
    public Verdict stream(final DirectBuffer buffer, final int offset, final int length)
    {
        return streamHash(hasher.hash(buffer, offset, length));
    }

    @Override
    public Verdict stream(final CharSequence text)
    {
        return streamHash(hasher.hash(text));
    }

    @Override
    public boolean contains(final long element)
    {
        return containsHash(hasher.hash(element));
    }

    @Override
    public boolean contains(final byte[] bytes, final int offset, final int length)
    {
        return containsHash(hasher.hash(bytes, offset, length));
    }

    @Override
    public boolean contains(final DirectBuffer buffer, final int offset, final int length)
    {
        return containsHash(hasher.hash(buffer, offset, length));
    }

    @Override
    public boolean contains(final CharSequence text)
    {
        return containsHash(hasher.hash(text));
    }

    @Override
    public FilterKind kind()
    {
        return parameters.kind();
    }

    @Override
    public FilterParameters parameters()
    {
        return parameters;
    }

    @Override
    public long elements()
    {
        return counters.elements();
    }

    @Override
    public long duplicates()
    {
        return counters.duplicates();
    }

    @Override
    public Path path()
    {
        return file.path();
    }

    @Override
    public void flush()
    {
        checkOpen();
        file.flush();
    }

    /**
     * Unmaps the file. Callers must make sure no other thread is still streaming into this filter.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            file.close();
        }
    }

    @Override
    public String toString()
    {
        return parameters.toString();
    }
}
