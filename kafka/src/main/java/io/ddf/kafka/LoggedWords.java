package io.ddf.kafka;

import io.ddf.engine.FilterWords;

/**
 * Which of a filter's words have changed since they were last written to the changelog: the live words (the
 * filter's file) beside a copy of what the changelog holds (an anonymous filter of the same parameters, so the copy
 * lives off-heap and starts from the same initial content as a fresh file).
 *
 * <p>Why a copy and a comparison at commit, rather than a record per word at each {@code stream}: the engine's
 * kinds update words in many ways (a QHT row shift, cuckoo relocations, a stable Bloom filter's decrements, the
 * queuing construction's rotation), and knowing which words one element changed would mean instrumenting every
 * kind. Comparing at commit is kind-agnostic, logs each changed word once per commit with its latest value (fewer
 * records than per-element logging for the words a burst touches repeatedly, such as the counters), and a word
 * that a DUPLICATE left unchanged is never logged. It costs one pass over the words per commit (measured in
 * {@code kafka/README.md}) and off-heap memory equal to the table.
 *
 * <p>Single-threaded: Kafka Streams gives a store to one thread at a time.
 */
final class LoggedWords
{
    /** Receives one changed word. */
    @FunctionalInterface
    interface Sink
    {
        /**
         * @param index the word's index in {@link io.ddf.engine.Filters#mutableWords}.
         * @param value its new value.
         */
        void word(long index, long value);
    }

    /** Receives one changed block of words. */
    @FunctionalInterface
    interface BlockSink
    {
        /**
         * @param block the block's index (its first word is {@code block * blockWords}).
         * @param words its words, all of them, as they are now.
         */
        void block(long block, long[] words);
    }

    private final FilterWords live;
    private final FilterWords logged;

    /**
     * @param live   the filter's words.
     * @param logged the words as the changelog holds them; as many as {@code live}.
     */
    LoggedWords(final FilterWords live, final FilterWords logged)
    {
        if (live.words() != logged.words())
        {
            throw new IllegalArgumentException(live.words() + " live words but " + logged.words() + " logged");
        }
        this.live = live;
        this.logged = logged;
    }

    /** @return the number of words. */
    long words()
    {
        return live.words();
    }

    /**
     * Passes every word that differs from its logged value to the sink, then takes it as logged.
     *
     * @param sink receives the changed words, in index order.
     * @return how many words changed.
     */
    long drainChanges(final Sink sink)
    {
        long changed = 0;
        for (long i = live.mismatch(logged, 0); i >= 0; i = live.mismatch(logged, i + 1))
        {
            final long value = live.getPlain(i);
            sink.word(i, value);
            logged.putPlain(i, value);
            changed++;
        }
        return changed;
    }

    /**
     * Passes every block of {@code blockWords} words in which some word differs from its logged value to the sink,
     * whole, then takes it as logged.
     *
     * @param blockWords words per block; the number of words must be a multiple of it.
     * @param sink       receives the changed blocks, in index order (the array is reused).
     * @return how many blocks changed.
     */
    long drainBlocks(final int blockWords, final BlockSink sink)
    {
        final long[] block = new long[blockWords];
        long changed = 0;
        for (long i = live.mismatch(logged, 0); i >= 0; )
        {
            final long b = i / blockWords;
            final long first = b * blockWords;
            for (int w = 0; w < blockWords; w++)
            {
                block[w] = live.getPlain(first + w);
                logged.putPlain(first + w, block[w]);
            }
            sink.block(b, block);
            changed++;
            i = first + blockWords < live.words() ? live.mismatch(logged, first + blockWords) : -1;
        }
        return changed;
    }

    /** @return how many words differ from their logged value, changing nothing. */
    long countChanges()
    {
        long changed = 0;
        for (long i = live.mismatch(logged, 0); i >= 0; i = live.mismatch(logged, i + 1))
        {
            changed++;
        }
        return changed;
    }

    /**
     * Applies a word read back from the changelog: both the filter and the copy take its value.
     *
     * @param index the word's index.
     * @param value its value.
     * @throws IndexOutOfBoundsException when the index is outside the words.
     */
    void restore(final long index, final long value)
    {
        if (index < 0 || index >= live.words())
        {
            throw new IndexOutOfBoundsException("word " + index + " outside 0.." + (live.words() - 1));
        }
        live.putPlain(index, value);
        logged.putPlain(index, value);
    }

    /** Takes every live word as logged: for a file known to be fully in the changelog. */
    void markAllLogged()
    {
        final long words = live.words();
        for (long i = 0; i < words; i++)
        {
            logged.putPlain(i, live.getPlain(i));
        }
    }
}
