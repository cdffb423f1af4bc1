package io.ddf.engine.tune;

import io.ddf.engine.FilterKind;

import java.util.EnumSet;
import java.util.Locale;
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
 * {@link #estimate} predicts, per element judged new, the bytes and records the changelog takes, and the bytes a
 * restore reads once the topic is compacted: what a Kafka Streams user compares with the exact store's one record
 * per new key. For the word log it is a bound: a word changed twice between two commits is logged once.
 *
 * @param hashes               whether the changelog is the hashes of the new elements.
 * @param bytesPerNewElement   changelog key and value bytes per element judged new (snapshots included).
 * @param recordsPerNewElement changelog records per element judged new (the hashes of a commit are one record).
 * @param restoreBytes         bytes a restore reads from the compacted changelog, per filter.
 * @param newElements          elements judged new over the stream (per filter), the basis of the figures.
 */
public record ChangelogCost(boolean hashes, double bytesPerNewElement, double recordsPerNewElement,
    double restoreBytes, double newElements)
{
    /** Kinds whose changelog is the hashes of the elements they judged new (see the class comment). */
    public static final Set<FilterKind> REPLAYABLE = EnumSet.of(FilterKind.BLOOM, FilterKind.QHT, FilterKind.SQF);
    /** A snapshot of the table is logged each time the hashes logged since the last one reach this many tables. */
    public static final double SNAPSHOT_RATIO = 1.0;
    /** Bytes of one logged hash. */
    public static final int HASH_BYTES = Long.BYTES;
    /** Key and value bytes of one word record. */
    public static final int WORD_RECORD_BYTES = 2 * Long.BYTES;
    /**
     * The default cap of {@code ddf tune --changelog}: the key and value bytes of an exact store's record for a
     * new 8-byte key (the RocksDB-store dedup logs one such record per new key).
     */
    public static final double EXACT_STORE_RECORD_BYTES = 16;

    /**
     * @param kind a filter's kind (the queuing construction is {@link FilterKind#QUEUE}).
     * @return whether its changelog can be the hashes of the elements judged new.
     */
    public static boolean replayable(final FilterKind kind)
    {
        return REPLAYABLE.contains(kind);
    }

    /**
     * @param candidate a filter the tuner weighs.
     * @param workload  its stream.
     * @return its changelog's cost.
     */
    public static ChangelogCost estimate(final Candidate candidate, final Workload workload)
    {
        return estimate(candidate, workload, newFraction(workload));
    }

    /**
     * @param workload a stream.
     * @return the fraction of its elements that are new (distinct so far), over its length or, endless, its horizon.
     */
    static double newFraction(final Workload workload)
    {
        final StreamWeights weights = new StreamWeights(workload);
        final double n = Math.min(weights.horizon(), 1e15);
        return n < 1 ? 1 : Math.min(1, weights.distinct(n) / n);
    }

    /**
     * @param candidate   a filter.
     * @param workload    its stream.
     * @param newFraction {@link #newFraction} of the stream.
     * @return its changelog's cost.
     */
    static ChangelogCost estimate(final Candidate candidate, final Workload workload, final double newFraction)
    {
        final double table = candidate.parameters().get("memory-bits").doubleValue() / 8;
        final double length = workload.finite() ? workload.length() : Double.POSITIVE_INFINITY;
        final double newElements = newFraction * length;
        if (!candidate.queued() && replayable(candidate.kind()))
        {
            final double perTable = SNAPSHOT_RATIO * table / HASH_BYTES; // new elements between two snapshots
            if (!(newElements < Double.POSITIVE_INFINITY))
            {
                return new ChangelogCost(true, HASH_BYTES + table / perTable, 0, table + SNAPSHOT_RATIO * table,
                    newElements);
            }
            final double snapshots = Math.floor(newElements / perTable);
            final double since = newElements - snapshots * perTable;
            return new ChangelogCost(true, HASH_BYTES + (newElements > 0 ? snapshots * table / newElements : 0), 0,
                (snapshots > 0 ? table : 0) + since * HASH_BYTES, newElements);
        }
        final double wordsPerNew = wordsPerElement(candidate) / Math.max(newFraction, 1e-300);
        final double everChanged = Math.min(table / Long.BYTES, wordsPerNew * newElements);
        return new ChangelogCost(false, WORD_RECORD_BYTES * wordsPerNew, wordsPerNew,
            WORD_RECORD_BYTES * (Double.isNaN(everChanged) ? table / Long.BYTES : everChanged), newElements);
    }

    /**
     * Words an arriving element changes, for the kinds logged word by word (an upper bound: the same word changed
     * twice in a commit is logged once): the insertion's words, and for the kinds that change state on a DUPLICATE
     * too (QHTD, QQHTD, SBF's decrements, a window's clock) on every element.
     */
    private static double wordsPerElement(final Candidate c)
    {
        final Number k = c.parameters().get("hash-functions");
        return switch (c.kind())
        {
            case SBF -> (k == null ? 1 : k.doubleValue()) + 1; // K cells set, about one decrement's word
            case FIFO_BLOOM, BLOOM -> k == null ? 1 : k.doubleValue();
            default -> c.queued() || c.kind() == FilterKind.SHF || c.kind() == FilterKind.CSHF ||
                c.kind() == FilterKind.EXACT_WINDOW ? 2 : 1; // an insertion and an expiry
        };
    }

    /**
     * @param cap largest bytes per new element, or NaN for none.
     * @return whether this changelog costs at most an exact store's: at most one record and {@code cap} bytes per
     *         new element.
     */
    public boolean within(final double cap)
    {
        return Double.isNaN(cap) || (bytesPerNewElement <= cap && recordsPerNewElement <= 1);
    }

    /** @return one line: the format, bytes and records per new element, what a restore reads. */
    public String describe()
    {
        return String.format(Locale.ROOT, "%s, %.3g bytes per new element, %s; a restore reads about %s",
            hashes ? "hashes of the new elements (snapshots included)" : "changed words",
            bytesPerNewElement, hashes ? "one record per commit" :
                String.format(Locale.ROOT, "%.3g records per new element", recordsPerNewElement), size(restoreBytes));
    }

    private static String size(final double bytes)
    {
        return bytes >= 1e9 ? String.format(Locale.ROOT, "%.3g GB", bytes / 1e9) :
            bytes >= 1e6 ? String.format(Locale.ROOT, "%.3g MB", bytes / 1e6) :
            String.format(Locale.ROOT, "%.3g kB", bytes / 1e3);
    }
}
