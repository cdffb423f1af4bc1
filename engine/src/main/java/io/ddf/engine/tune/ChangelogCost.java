package io.ddf.engine.tune;

import io.ddf.engine.FilterKind;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a filter costs when it is replicated through a changelog, as the Kafka Streams store ({@code ddf-kafka}) does,
 * and which of its two ways of logging a kind allows:
 * <ul>
 *   <li><b>hashes</b>, for the kinds of {@link #REPLAYABLE}: the 64-bit hash of every element judged UNSEEN, a few
 *       thousand to a record, plus a snapshot of the table each time the hashes logged since the last one reach
 *       {@link #SNAPSHOT_RATIO} times the table's size, so that a compacted topic stays bounded. A restore replays
 *       the hashes, in order, into the last snapshot. That rebuilds the same table bytes only for kinds where a
 *       DUPLICATE changes no table word and an insertion is a function of the hash and the words it changes (no
 *       clock, no rotation, no sampling counter): the Bloom filter, and QHT and SQF, whose rows keep their
 *       elements until another element of the row evicts one.</li>
 *   <li><b>words</b>, for every other kind: each word that changed since the last commit, as a 16-byte record,
 *       found by comparing the table with a copy of what the changelog holds.</li>
 * </ul>
 * The figures are per element judged new, for a table of {@code tableBytes}: what a Kafka Streams user compares
 * with the exact store's one record per new key.
 */
public final class ChangelogCost
{
    /** Kinds whose changelog is the hashes of the elements they judged new (see the class comment). */
    public static final Set<FilterKind> REPLAYABLE = EnumSet.of(FilterKind.BLOOM, FilterKind.QHT, FilterKind.SQF);
    /** A snapshot of the table is logged each time the hashes logged since the last one reach this many tables. */
    public static final double SNAPSHOT_RATIO = 1.0;
    /** Bytes of one logged hash. */
    public static final int HASH_BYTES = Long.BYTES;
    /** Key and value bytes of one word record. */
    public static final int WORD_RECORD_BYTES = 2 * Long.BYTES;

    private ChangelogCost()
    {
    }

    /**
     * @param kind a filter's kind (the queuing construction is {@link FilterKind#QUEUE}).
     * @return whether its changelog can be the hashes of the elements judged new.
     */
    public static boolean replayable(final FilterKind kind)
    {
        return REPLAYABLE.contains(kind);
    }
}
