package io.ddf.kafka;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterWords;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import org.apache.kafka.streams.errors.ProcessorStateException;

import java.nio.file.Path;

/**
 * A {@link DdfStore}'s changelog, one of its {@link ChangelogFormat}s: what it logs at each commit, and how it
 * applies records read back. Every format reads every record type ({@link ChangelogKeys}), so a changelog written
 * in one format restores into a store of another; the parameters record is the store's own.
 *
 * <p>The filter's words ({@link Filters#mutableWords}) are a header part (the element and duplicate counters, the
 * kind's header state, then zeros to the end of the header page: {@link #headerWords} words) and the table.
 * Single-threaded, as the store is.
 *
 * <p>A filter that keeps state of its own in the process beside its words (a fifo-bloom with a window of time: which
 * slots it has sealed, and how far) should not be streamed into after words were written under it: that state would
 * be the one of the calls replayed before (a partly compacted topic's), not the words'. The store gives a
 * {@link Reopener}, and the first replay of calls or hashes (or stream) after a restore of words reopens the file, so
 * that the engine's open rebuilds that state from the words ({@link #settle}).
 */
abstract class StoreChangelog
{
    /** Receives the records to log. */
    @FunctionalInterface
    interface Sink
    {
        /**
         * @param key   the record's key.
         * @param value its value, or null to delete the key.
         */
        void record(byte[] key, byte[] value);
    }

    /** Reopens the store's filter file (the old filter closed), for {@link #settle}. */
    @FunctionalInterface
    interface Reopener
    {
        /** @return the filter, open again on its file. */
        DuplicateFilter reopen();
    }

    protected final String store;
    protected DuplicateFilter filter;
    protected FilterWords live;
    protected final int headerWords;
    private Reopener reopener;
    private boolean wordsWritten;

    /**
     * @param store  the store's name, for messages.
     * @param filter the filter.
     */
    StoreChangelog(final String store, final DuplicateFilter filter)
    {
        this.store = store;
        this.filter = filter;
        this.live = Filters.mutableWords(filter);
        this.headerWords = (int)(live.words() - filter.parameters().tableBytes() / Long.BYTES);
    }

    /**
     * Called once, before anything is restored or streamed.
     *
     * @param existed whether the file was there before the store opened it.
     * @param clean   whether it was closed cleanly with everything logged (its marker was there).
     * @param dir     the task's state directory.
     */
    abstract void opened(boolean existed, boolean clean, Path dir);

    /**
     * An element was streamed.
     *
     * @param hash    its hash.
     * @param time    the time it was given, or -1 for none.
     * @param verdict the verdict.
     */
    abstract void streamed(long hash, long time, Verdict verdict);

    /**
     * @param reopener reopens the filter's file after words were restored under it, before anything else is
     *                 streamed into it; null (the default) for a filter whose state is all in its words.
     */
    final void reopenAfterWords(final Reopener reopener)
    {
        this.reopener = reopener;
    }

    /**
     * Reopens the filter if words were restored under it since it was opened (with a {@link Reopener}).
     *
     * @return the filter, the same or reopened.
     */
    final DuplicateFilter settle()
    {
        if (wordsWritten)
        {
            wordsWritten = false;
            filter = reopener.reopen();
            live = Filters.mutableWords(filter);
            rebound();
        }
        return filter;
    }

    /** The filter was reopened ({@link #filter} and {@link #live} are new): drop what referred to the old one. */
    protected void rebound()
    {
    }

    /**
     * Logs what the changelog lacks (at each commit of an active task).
     *
     * @param sink receives the records, in order.
     */
    abstract void commit(Sink sink);

    /** @return whether the changelog holds everything the file holds (nothing left to log). */
    abstract boolean fullyLogged();

    /**
     * Keeps on disk what the next run needs to go on writing (after the file is forced, before Kafka Streams writes a
     * checkpoint, and at close).
     *
     * @param dir the task's state directory.
     */
    void persist(final Path dir)
    {
    }

    /** Releases what the format holds besides the filter. */
    void close()
    {
    }

    /**
     * Applies one record read back from the changelog (not the parameters record, which the store checks).
     *
     * @param key   its key.
     * @param value its value (null: a deleted key).
     * @throws ProcessorStateException when the record is not one a ddf store writes, or does not fit the filter.
     */
    final void restore(final byte[] key, final byte[] value)
    {
        if (key.length == Long.BYTES)
        {
            final long index = ChangelogKeys.number(key);
            if (value == null || value.length != Long.BYTES)
            {
                throw corrupt("word " + index + " has a value of " + length(value) + ", not 8");
            }
            restoreWords(index, ChangelogKeys.longs(value));
            return;
        }
        if (key.length != ChangelogKeys.TYPED_LENGTH)
        {
            throw corrupt("a key of " + key.length + " bytes where 8 or 9 were expected");
        }
        final long number = ChangelogKeys.number(key);
        switch (key[0])
        {
            case ChangelogKeys.BLOCK ->
            {
                if (value == null || value.length != 8 * Long.BYTES)
                {
                    throw corrupt("block " + number + " has a value of " + length(value) + ", not 64");
                }
                restoreWords(number * 8, ChangelogKeys.longs(value));
            }
            case ChangelogKeys.HASHES ->
            {
                if (value != null) // null: a batch deleted once a snapshot covered it
                {
                    if (value.length % Long.BYTES != 0)
                    {
                        throw corrupt("hashes of " + value.length + " bytes, not a multiple of 8");
                    }
                    replay(number >>> 32, number & 0xFFFF_FFFFL, ChangelogKeys.longs(value));
                }
            }
            case ChangelogKeys.CALLS ->
            {
                if (value != null) // null: a batch deleted once a snapshot covered it
                {
                    try
                    {
                        replayCalls(number >>> 32, number & 0xFFFF_FFFFL, value);
                    }
                    catch (final IllegalArgumentException e)
                    {
                        throw corrupt("calls: " + e.getMessage());
                    }
                }
            }
            case ChangelogKeys.CHUNK ->
            {
                final long offset = number & ((1L << ChangelogKeys.PARITY_SHIFT) - 1);
                if (value == null || value.length == 0 || value.length % Long.BYTES != 0)
                {
                    throw corrupt("snapshot chunk at table word " + offset + " with a value of " + length(value));
                }
                restoreWords(headerWords + offset, ChangelogKeys.longs(value));
            }
            case ChangelogKeys.SNAPSHOT_DONE ->
            {
                if (value == null || value.length != 2 * Long.BYTES)
                {
                    throw corrupt("a snapshot marker of " + length(value));
                }
                snapshotDone(ChangelogKeys.longs(value)[0]);
            }
            default -> throw corrupt("a key of type " + (key[0] & 0xFF));
        }
    }

    /**
     * Sets words to values read back.
     *
     * @param first the first word's index.
     * @param words their values.
     */
    protected void restoreWords(final long first, final long[] words)
    {
        if (first < 0 || first + words.length > live.words())
        {
            throw corrupt("word " + (first < 0 ? first : first + words.length - 1) + " outside 0.." +
                (live.words() - 1) + " of the filter [" + filter.parameters() + "]");
        }
        for (int i = 0; i < words.length; i++)
        {
            live.putPlain(first + i, words[i]);
        }
        wordsWritten |= reopener != null;
    }

    /**
     * Streams logged calls into the filter again, each with its time, exactly as they were made: header words and
     * all follow, as they did in the writer.
     *
     * @param epoch the batch's epoch (the snapshots logged before it).
     * @param seq   its number in the epoch.
     * @param calls the record's value ({@link ChangelogKeys#forEachCall}).
     * @return how many calls it held.
     * @throws IllegalArgumentException when the value does not end on a whole call.
     */
    protected int replayCalls(final long epoch, final long seq, final byte[] calls)
    {
        return callInto(settle(), calls);
    }

    /**
     * @param target a filter.
     * @param calls  a {@link ChangelogKeys#CALLS} record's value: the calls to stream into it.
     * @return how many.
     */
    protected static int callInto(final DuplicateFilter target, final byte[] calls)
    {
        return ChangelogKeys.forEachCall(calls, (hash, time) ->
        {
            if (time < 0)
            {
                target.streamHash(hash);
            }
            else
            {
                target.streamHash(hash, time);
            }
        });
    }

    /**
     * Streams logged hashes into the filter again, leaving its header words (the counters, which their own records
     * restore) as they were.
     *
     * @param epoch  the batch's epoch (the snapshots logged before it).
     * @param seq    its number in the epoch.
     * @param hashes the hashes, in stream order.
     */
    protected void replay(final long epoch, final long seq, final long[] hashes)
    {
        settle();
        replayInto(filter, live, hashes);
    }

    /**
     * @param target a filter.
     * @param words  its words.
     * @param hashes hashes to stream into it, its header words kept.
     */
    protected final void replayInto(final DuplicateFilter target, final FilterWords words, final long[] hashes)
    {
        final long[] header = new long[headerWords];
        for (int i = 0; i < headerWords; i++)
        {
            header[i] = words.getPlain(i);
        }
        for (final long hash : hashes)
        {
            target.streamHash(hash);
        }
        for (int i = 0; i < headerWords; i++)
        {
            words.putPlain(i, header[i]);
        }
    }

    /**
     * A snapshot's chunks were all read back.
     *
     * @param ordinal its ordinal (1 for the first).
     */
    protected void snapshotDone(final long ordinal)
    {
    }

    protected final ProcessorStateException corrupt(final String why)
    {
        return new ProcessorStateException("ddf store '" + store + "': changelog record with " + why +
            ": not a ddf store's changelog, or written by another layout");
    }

    private static String length(final byte[] value)
    {
        return value == null ? "null" : value.length + " bytes";
    }
}
