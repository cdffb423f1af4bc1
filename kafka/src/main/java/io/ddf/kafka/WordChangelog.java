package io.ddf.kafka;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;

import java.nio.file.Path;

/**
 * The changelog of changed words ({@link ChangelogFormat#WORDS}) or of changed 64-byte blocks
 * ({@link ChangelogFormat#BLOCKS}), for any kind: at each commit, every word (block) that differs from a copy of what
 * the changelog holds ({@link LoggedWords}) is logged with its new contents and copied. Kind-agnostic, at the
 * price of that copy (off-heap, the table's size) and one pass over the table per commit.
 */
final class WordChangelog extends StoreChangelog
{
    /** Words per block in {@link ChangelogFormat#BLOCKS}: a cache line. */
    static final int BLOCK_WORDS = 8;

    private final DuplicateFilter copy;
    private LoggedWords words;
    private final boolean blocks;

    /**
     * @param store  the store's name.
     * @param filter the filter.
     * @param copy   a fresh anonymous filter of the same parameters and seed: what an empty changelog holds.
     * @param blocks true for 64-byte blocks, false for words.
     */
    WordChangelog(final String store, final DuplicateFilter filter, final DuplicateFilter copy, final boolean blocks)
    {
        super(store, filter);
        this.copy = copy;
        this.words = new LoggedWords(live, Filters.mutableWords(copy));
        this.blocks = blocks;
    }

    @Override
    void opened(final boolean existed, final boolean clean, final Path dir)
    {
        if (existed && clean)
        {
            words.markAllLogged(); // closed cleanly with every word logged: the changelog holds this file
        }
        // else the copy stays fresh: the first commit logs every word that differs from a fresh file
    }

    @Override
    void streamed(final long hash, final long time, final Verdict verdict)
    {
    }

    @Override
    protected void rebound()
    {
        words = new LoggedWords(live, Filters.mutableWords(copy));
    }

    @Override
    void commit(final StoreChangelog.Sink sink)
    {
        if (blocks)
        {
            words.drainBlocks(BLOCK_WORDS, (block, values) -> sink.record(ChangelogKeys.typed(ChangelogKeys.BLOCK, block),
                ChangelogKeys.longs(values, 0, values.length)));
        }
        else
        {
            words.drainChanges((index, value) -> sink.record(ChangelogKeys.word(index),
                ChangelogKeys.longs(new long[] {value}, 0, 1)));
        }
    }

    @Override
    boolean fullyLogged()
    {
        return words.countChanges() == 0;
    }

    @Override
    protected void restoreWords(final long first, final long[] values)
    {
        super.restoreWords(first, values);
        for (int i = 0; i < values.length; i++)
        {
            words.restore(first + i, values[i]);
        }
    }

    @Override
    protected void replay(final long epoch, final long seq, final long[] hashes)
    {
        super.replay(epoch, seq, hashes);
        replayInto(copy, Filters.mutableWords(copy), hashes);
    }

    @Override
    protected int replayCalls(final long epoch, final long seq, final byte[] calls)
    {
        final int n = super.replayCalls(epoch, seq, calls);
        callInto(copy, calls);
        return n;
    }

    @Override
    void close()
    {
        copy.close();
    }
}
