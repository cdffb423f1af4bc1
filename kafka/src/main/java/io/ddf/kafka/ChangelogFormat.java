package io.ddf.kafka;

import io.ddf.engine.FilterKind;
import io.ddf.engine.tune.ChangelogCost;

/**
 * What a {@link DdfStore} writes to its changelog at each commit. Whatever the format, a restore reads every record
 * type, so an application may change its format between runs.
 */
public enum ChangelogFormat
{
    /**
     * {@link #HASHES} for the kinds whose table their new elements' hashes rebuild, {@link #CALLS} for a fifo-bloom
     * with a window of time, {@link #WORDS} for the others.
     */
    AUTO,
    /**
     * The 64-bit hash of every element judged UNSEEN, batched (one record per commit, or per {@value
     * HashChangelog#BATCH} hashes), plus a snapshot of the table each time the hashes since the last one reach the
     * table's size, so that compaction bounds the topic. Only for the kinds of {@link ChangelogCost#REPLAYABLE}.
     */
    HASHES,
    /**
     * Every call's element hash and time, batched (one record per commit, or per {@value HashChangelog#BATCH} calls),
     * about 10 bytes a call, plus a snapshot of the file's words each time the calls' bytes since the last one reach
     * the table's size. Replayed in order into the last snapshot, the calls give the same file: the filter's calls
     * are its only input (event time, one writer). Only for a {@link FilterKind#FIFO_BLOOM} with a window of time,
     * whose duplicates (the time they bring: turns, expiries; the seals spread over the calls) change the table too,
     * so that its new elements' hashes alone would not rebuild it.
     */
    CALLS,
    /** Each changed 64-byte block (eight words) as one record: key its index, value its bytes. */
    BLOCKS,
    /** Each changed 64-bit word as one record: key its index, value its contents. */
    WORDS;

    /**
     * @param kind the filter's kind ({@link FilterKind#QUEUE} for the queuing construction).
     * @return the format a store of that kind, without a window of time, writes.
     * @throws IllegalArgumentException for {@link #HASHES} with a kind whose table hashes cannot rebuild.
     */
    ChangelogFormat resolve(final FilterKind kind)
    {
        return resolve(kind, false);
    }

    /**
     * @param kind       the filter's kind ({@link FilterKind#QUEUE} for the queuing construction).
     * @param timeWindow whether the filter has a window of time.
     * @return the format a store of that filter writes.
     * @throws IllegalArgumentException for {@link #HASHES} with a kind whose table hashes cannot rebuild, or
     *                                  {@link #CALLS} without a window of time.
     */
    ChangelogFormat resolve(final FilterKind kind, final boolean timeWindow)
    {
        if (this == AUTO)
        {
            return timeWindow ? CALLS : ChangelogCost.replayable(kind) ? HASHES : WORDS;
        }
        if (this == CALLS && !(kind == FilterKind.FIFO_BLOOM && timeWindow))
        {
            throw new IllegalArgumentException("a changelog of calls is a fifo-bloom's with a window of time (--window " +
                "TIME), not " + (kind == FilterKind.FIFO_BLOOM ? "one that forgets by count" : kind.cliName()) +
                " (use auto, words or blocks)");
        }
        if (this == HASHES && !ChangelogCost.replayable(kind))
        {
            throw new IllegalArgumentException("a changelog of hashes rebuilds only " + ChangelogCost.REPLAYABLE +
                ", not " + kind.cliName() + ": its duplicates or its clock change the table too (use words or blocks)");
        }
        return this;
    }
}
