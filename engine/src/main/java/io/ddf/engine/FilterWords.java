package io.ddf.engine;

import io.ddf.engine.internal.GuardedWords;

/**
 * The words of a filter's file that streaming changes, for code that replicates a filter word by word (the Kafka
 * Streams store's changelog); from {@link Filters#mutableWords}. Word {@code i} is the file's bytes
 * {@code [1024 + 8i, 1032 + 8i)}: from the start of the state region (element and duplicate counters, the kind's
 * header state), through the reserved rest of the header page (always zero), to the end of the table; see
 * {@link io.ddf.persistence.FilterFileDescriptor}. Two filters made with the same parameters and seed whose words
 * are equal hold the same state and give the same verdicts.
 *
 * <p>Valid until the filter is closed (then every method throws {@link IllegalStateException}; a close waits for a
 * call under way). Reads and writes are plain: they race with a concurrent {@code stream} like any other plain
 * access to the mapping, so copy or apply words while no thread streams into the filter.
 */
public final class FilterWords
{
    private final GuardedWords words;

    FilterWords(final GuardedWords words)
    {
        this.words = words;
    }

    /** @return the number of words. */
    public long words()
    {
        return words.count();
    }

    /**
     * @param index word index, from 0 to {@link #words()} - 1.
     * @return the word, read plainly.
     * @throws IllegalStateException when the filter is closed.
     */
    public long getPlain(final long index)
    {
        return words.get(index);
    }

    /**
     * Compares with another filter's words, one pass at memory speed: how a replica finds what changed since a
     * copy was taken.
     *
     * @param other the words of another filter.
     * @param from  the first index to compare.
     * @return the first index at or after {@code from} where the two differ (a word, or the shorter's end), or -1.
     * @throws IllegalStateException when either filter is closed.
     */
    public long mismatch(final FilterWords other, final long from)
    {
        return words.mismatch(other.words, from);
    }

    /**
     * @param index word index, from 0 to {@link #words()} - 1.
     * @param value stored plainly.
     * @throws IllegalStateException when the filter is closed.
     */
    public void putPlain(final long index, final long value)
    {
        words.put(index, value);
    }
}
