package io.ddf.engine.changelog;

/**
 * A target's row-local records ({@link ReplayLanes}) applied in the order of the table lines they write
 * ({@link SortedReplay}): each record, taken at decoding in log order, gives at most {@link #MAX_ENTRIES} entries, a
 * line number and a payload, each entry's effect confined to its line; the entries of a chunk are then sorted stably
 * by line and applied in that order, so that the table is written in address order and a line's entries, in log
 * order among themselves, come one after the other. For a kind whose rows' state depends on their own entries' order
 * alone this is exactly the sequential replay (the sort is stable; a row lies in one line).
 */
public interface ReplayLines
{
    /** Most entries a record gives (a blocked Bloom layer's two blocks). */
    int MAX_ENTRIES = 2;

    /**
     * Takes a local record at decoding, in log order, with every record before it taken and every barrier before it
     * applied: keeps to itself what of the record does not depend on order (a layer's count, the largest), and writes
     * its entries at {@code at}.
     *
     * @param op       the record's op.
     * @param aux      its aux field.
     * @param hash     word 1.
     * @param arg      word 2.
     * @param arg3     word 3 of a two-unit record, else 0.
     * @param lines    receives the entries' line numbers: 0 or more, adjacent numbers adjacent lines of the table.
     * @param payloads receives what {@link #apply} needs of each entry.
     * @param at       where the record's first entry goes.
     * @return the entries written, 0 to {@link #MAX_ENTRIES}; or -1, nothing kept or written: the record is a barrier
     *         after all (its lines cannot be numbered), applied alone by the target.
     */
    int take(int op, int aux, long hash, long arg, long arg3, int[] lines, long[] payloads, int at);

    /**
     * Applies a chunk's entries in the order given (sorted by line, entries of one line in log order): each entry
     * its record's effect on its line. One call a chunk, so that the target can gather a line's entries before it
     * writes the line.
     *
     * @param lines    the entries' lines.
     * @param payloads their payloads.
     * @param size     the entries, [0, size) of both arrays.
     */
    void apply(int[] lines, long[] payloads, int size);

    /**
     * @return whether the sorted replay is the target's default, else it runs only when {@code ddf.replay.sorted}
     *         asks for it (a kind for which it was measured not to pay).
     */
    default boolean sortedByDefault()
    {
        return true;
    }

    /**
     * Stores what {@link #take} kept to itself as the sequential replay would have left it, and starts afresh. Called
     * with every taken record's entries applied, before a barrier and at the end.
     */
    void merge();
}
