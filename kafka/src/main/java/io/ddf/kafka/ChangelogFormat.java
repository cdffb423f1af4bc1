package io.ddf.kafka;

import io.ddf.engine.FilterKind;
import io.ddf.engine.tune.ChangelogCost;

/**
 * What a {@link DdfStore} writes to its changelog at each commit. Whatever the format, a restore reads every record
 * type, so an application may change its format between runs.
 */
public enum ChangelogFormat
{
    /** {@link #HASHES} for the kinds whose table their new elements' hashes rebuild, {@link #WORDS} for the others. */
    AUTO,
    /**
     * The 64-bit hash of every element judged UNSEEN, batched (one record per commit, or per {@value
     * HashChangelog#BATCH} hashes), plus a snapshot of the table each time the hashes since the last one reach the
     * table's size, so that compaction bounds the topic. Only for the kinds of {@link ChangelogCost#REPLAYABLE}.
     */
    HASHES,
    /** Each changed 64-byte block (eight words) as one record: key its index, value its bytes. */
    BLOCKS,
    /** Each changed 64-bit word as one record: key its index, value its contents. */
    WORDS;

    /**
     * @param kind the filter's kind ({@link FilterKind#QUEUE} for the queuing construction).
     * @return the format a store of that kind writes.
     * @throws IllegalArgumentException for {@link #HASHES} with a kind whose table hashes cannot rebuild.
     */
    ChangelogFormat resolve(final FilterKind kind)
    {
        if (this == AUTO)
        {
            return ChangelogCost.replayable(kind) ? HASHES : WORDS;
        }
        if (this == HASHES && !ChangelogCost.replayable(kind))
        {
            throw new IllegalArgumentException("a changelog of hashes rebuilds only " + ChangelogCost.REPLAYABLE +
                ", not " + kind.cliName() + ": its duplicates or its clock change the table too (use words or blocks)");
        }
        return this;
    }
}
