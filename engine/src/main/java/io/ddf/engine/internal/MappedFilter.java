package io.ddf.engine.internal;

import io.ddf.engine.hash.ElementHasher;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.CountingCore;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.persistence.FilterFile;
import org.agrona.DirectBuffer;

import java.nio.file.Path;

/**
 * The machinery of a filter on a mapped file: hashes the element in whichever form it comes, lets the kind's
 * {@link FilterCore} decide and update, and counts the verdicts in the file's state region. It answers in
 * booleans; the embedder API adapts it to its {@code DuplicateFilter} and {@code Verdict}, so that nothing here
 * depends on the API.
 */
public final class MappedFilter
{
    private final FilterFile file;
    private final KindDefinition definition;
    private final long[] slots;
    private final ElementHasher hasher;
    private final FilterCore core;
    private final FilterCounters counters;
    /** The file from the state region to the end of the table: the words streaming changes (replication). */
    private final MappedWords mutableWords;
    private final boolean singleWriter;
    private boolean closed;

    MappedFilter(final FilterFile file, final KindDefinition definition, final long[] slots, final FilterCore core,
        final boolean singleWriter)
    {
        this.singleWriter = singleWriter;
        this.file = file;
        this.definition = definition;
        this.slots = slots.clone();
        this.core = core;
        this.hasher = ElementHasher.of(file.spec().hashAlgorithm(), file.spec().seed(), file.spec().key());
        this.counters = new FilterCounters(file.stateAddress(), file.stateLength());
        this.mutableWords = new MappedWords(file.stateAddress(),
            (file.tableAddress() + file.tableLength() - file.stateAddress()) / Long.BYTES);
    }

    /**
     * @return whether the filter runs in single-writer mode: the caller promises that one thread at a time updates
     *         each partition (each row of a quotient filter; the whole filter for kinds that are not
     *         {@link #partitioned()}), so updates need no locked instruction.
     */
    public boolean singleWriter()
    {
        return singleWriter;
    }

    /** @return the number of mutable words: from the state region to the end of the table. */
    public long mutableWordCount()
    {
        checkOpen();
        return mutableWords.words();
    }

    /**
     * @param index a mutable word's index.
     * @return the word, read plainly.
     */
    public long mutableWord(final long index)
    {
        checkOpen();
        return mutableWords.getLongPlain(index);
    }

    /**
     * @param index a mutable word's index.
     * @param value stored plainly.
     */
    public void putMutableWord(final long index, final long value)
    {
        checkOpen();
        mutableWords.putLongPlain(index, value);
    }

    /**
     * @param other another filter.
     * @param from  the first index to compare.
     * @return the first index at or after {@code from} where the two differ (a word, or the shorter's end), or -1.
     */
    public long mutableWordsMismatch(final MappedFilter other, final long from)
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

    /** @return the kind's definition, as the header names it. */
    public KindDefinition definition()
    {
        return definition;
    }

    /** @return the header's parameter slots, one per parameter of the definition. */
    public long[] slots()
    {
        return slots.clone();
    }

    /** @return the header's hash algorithm code. */
    public int hashAlgorithm()
    {
        return file.spec().hashAlgorithm();
    }

    /** @return the header's hash seed. */
    public long seed()
    {
        return file.spec().seed();
    }

    /** @return the kind's algorithm (for tests that look inside). */
    public FilterCore core()
    {
        return core;
    }

    /** @return the element hasher (for tests that look inside). */
    public ElementHasher hasher()
    {
        return hasher;
    }

    /**
     * @param element the element, as its 8 little-endian bytes.
     * @return its hash.
     */
    public long hash(final long element)
    {
        return hasher.hash(element);
    }

    /**
     * @param bytes  holds the element.
     * @param offset of its first byte.
     * @param length of the element in bytes.
     * @return its hash.
     */
    public long hash(final byte[] bytes, final int offset, final int length)
    {
        return hasher.hash(bytes, offset, length);
    }

    /**
     * @param buffer holds the element.
     * @param offset of its first byte.
     * @param length of the element in bytes.
     * @return its hash.
     */
    public long hash(final DirectBuffer buffer, final int offset, final int length)
    {
        return hasher.hash(buffer, offset, length);
    }

    /**
     * @param text the element, as its UTF-8 bytes.
     * @return its hash.
     */
    public long hash(final CharSequence text)
    {
        return hasher.hash(text);
    }

    /** @return whether the core's partitions are disjoint state (see {@link FilterCore#partitioned()}). */
    public boolean partitioned()
    {
        return core.partitioned();
    }

    /**
     * @param hash an element's hash.
     * @return its partition.
     */
    public long partition(final long hash)
    {
        return core.partition(hash);
    }

    /**
     * @param hash an element's hash.
     * @return whether it is a duplicate; the state now records it and the counters count it.
     */
    public boolean streamHash(final long hash)
    {
        checkOpen();
        final boolean duplicate = core.stream(hash);
        counters.record(duplicate);
        return duplicate;
    }

    /**
     * @param hash an element's hash.
     * @return whether it would be judged a duplicate now; nothing changes.
     */
    public boolean containsHash(final long hash)
    {
        checkOpen();
        return core.contains(hash);
    }

    /** @return whether the core keeps entries it can count and delete ({@link CountingCore}: the cuckoo filter). */
    public boolean counting()
    {
        return core instanceof CountingCore;
    }

    /**
     * Inserts one more copy of the element, present or not (CF.ADD); counted as an unseen element.
     *
     * @param hash an element's hash.
     */
    public void addHash(final long hash)
    {
        checkOpen();
        countingCore().add(hash);
        counters.record(false);
    }

    /**
     * @param hash an element's hash.
     * @return whether one copy was found and deleted.
     */
    public boolean deleteHash(final long hash)
    {
        checkOpen();
        return countingCore().delete(hash);
    }

    /**
     * @param hash an element's hash.
     * @return the entries matching it (an upper bound on its copies).
     */
    public int countHash(final long hash)
    {
        checkOpen();
        return countingCore().count(hash);
    }

    /** @return copies deleted over the file's lifetime; 0 for a kind that cannot delete. */
    public long deletions()
    {
        return core instanceof CountingCore counting ? counting.deletions() : 0;
    }

    private CountingCore countingCore()
    {
        if (core instanceof CountingCore counting)
        {
            return counting;
        }
        throw new UnsupportedOperationException(definition.name() + " keeps no entries to count or delete; " +
            "only the cuckoo filter does");
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("filter is closed");
        }
    }

    /** @return elements streamed over the file's lifetime. */
    public long elements()
    {
        return counters.elements();
    }

    /** @return those judged duplicates. */
    public long duplicates()
    {
        return counters.duplicates();
    }

    /** @return the file, or null when anonymous. */
    public Path path()
    {
        return file.path();
    }

    /** Forces the state to the storage device. */
    public void flush()
    {
        checkOpen();
        file.flush();
    }

    /** Seals and unmaps the file. Callers must make sure no other thread is still streaming into this filter. */
    public void close()
    {
        if (!closed)
        {
            closed = true;
            file.close();
        }
    }

    /**
     * Closes many filters as one: their files are forced together ({@link FilterFile#closeAll}), so the time grows
     * with the data changed rather than the number of filters. Callers must make sure nothing streams into them.
     *
     * @param filters open filters; closed ones are skipped.
     */
    public static void closeAll(final java.util.Collection<MappedFilter> filters)
    {
        final java.util.List<FilterFile> files = new java.util.ArrayList<>(filters.size());
        for (final MappedFilter filter : filters)
        {
            if (!filter.closed)
            {
                filter.closed = true;
                files.add(filter.file);
            }
        }
        FilterFile.closeAll(files);
    }
}
