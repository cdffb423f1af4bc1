package io.ddf.engine.changelog;

/**
 * A target's records that can be replayed in parallel lanes, each lane the single writer of its own share of the
 * table (rows, blocks), applying its share's records in log order: for a kind whose record's effect is confined to
 * its rows and whose rows' state depends on those rows' history alone, the result is exactly the sequential
 * replay's. The other records (growth, turns, anything that reads or writes across rows) are barriers: the lanes
 * finish and {@link ReplayLane#merge() merge} first, then the record is applied alone, in log order.
 */
public interface ReplayLanes
{
    /**
     * Decided by the replaying thread when it reads the record, with every record before it applied or taken by the
     * lanes (barriers applied).
     *
     * @param op    the record's op.
     * @param aux   its aux field.
     * @param units its units (1 or 2).
     * @return whether the lanes take the record (else it is a barrier).
     */
    boolean local(int op, int aux, int units);

    /**
     * @param index the lane, 0 to {@code count - 1}.
     * @param count the lanes.
     * @return lane {@code index} of {@code count}: it takes the share of every local record that falls in its part.
     */
    ReplayLane lane(int index, int count);

    /**
     * @return the same records as entries to apply in the order of the lines they write ({@link SortedReplay}), or
     *         null: the lanes alone. Called once per replay, by the replaying thread.
     */
    default ReplayLines lines()
    {
        return null;
    }

    /** One lane of a parallel replay: one thread at a time, its share of the records in log order. */
    interface ReplayLane
    {
        /**
         * A plain read of the table line its share of the record will write (as {@link ReplayTarget#touch}).
         *
         * @param op   the record's op.
         * @param aux  its aux field.
         * @param hash its word 1.
         * @return the words read, summed (0 when none is its).
         */
        long touch(int op, int aux, long hash);

        /**
         * Applies the lane's share of a local record (nothing when none of it falls in the lane's part).
         *
         * @param op   the record's op.
         * @param aux  its aux field.
         * @param hash word 1.
         * @param arg  word 2.
         * @param arg3 word 3 of a two-unit record, else 0.
         */
        void apply(int op, int aux, long hash, long arg, long arg3);

        /**
         * Stores what the lane kept to itself (header counters: a count summed, a maximum) as the sequential replay
         * would have left it, and starts afresh. Called by the replaying thread with every lane finished.
         */
        void merge();
    }
}
