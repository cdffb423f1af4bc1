package io.ddf.engine.changelog;

import io.ddf.persistence.log.LogReader;

import java.util.function.Consumer;

/** What replays one filter's records onto its table (FORMAT-LOG.md's table, per kind). */
public interface ReplayTarget
{
    /**
     * Applies one record of the filter, idempotently where the kind's guarantee says exact.
     *
     * @param frame the reader, at the record.
     */
    void apply(LogReader frame);

    /**
     * Starts the cache misses of a record {@link #apply} will get soon: plain reads of the table lines it will write,
     * no store (replay touches a group of records ahead, as a batch's stream does, so that their misses overlap
     * instead of coming one after the other). A record the table cannot take yet (a layer its group grows) touches
     * nothing.
     *
     * @param op   the record's op code.
     * @param aux  its aux field.
     * @param hash its word 1 (the element's hash for the ops that carry one).
     * @return the words read, summed (so that the reads are not optimised away).
     */
    default long touch(final int op, final int aux, final long hash)
    {
        return 0;
    }

    /**
     * @return the lanes that replay this target's row-local records (decoded once, in parallel where it pays), or
     *         null: every record applied by {@link #apply} in log order.
     */
    default ReplayLanes lanes()
    {
        return null;
    }

    /**
     * @param apply replays one record.
     * @param touch touches one record's table lines ahead.
     * @return the two as a target.
     */
    static ReplayTarget of(final Consumer<LogReader> apply, final Touch touch)
    {
        return of(apply, touch, null);
    }

    /**
     * @param apply replays one record.
     * @param touch touches one record's table lines ahead.
     * @param lanes the target's lanes, or null.
     * @return the three as a target.
     */
    static ReplayTarget of(final Consumer<LogReader> apply, final Touch touch, final ReplayLanes lanes)
    {
        return new ReplayTarget()
        {
            @Override
            public ReplayLanes lanes()
            {
                return lanes;
            }

            @Override
            public void apply(final LogReader frame)
            {
                apply.accept(frame);
            }

            @Override
            public long touch(final int op, final int aux, final long hash)
            {
                return touch.touch(op, aux, hash);
            }
        };
    }

    /** {@link ReplayTarget#touch} alone. */
    @FunctionalInterface
    interface Touch
    {
        /**
         * @param op   the record's op code.
         * @param aux  its aux field.
         * @param hash its word 1.
         * @return the words read, summed.
         */
        long touch(int op, int aux, long hash);
    }
}
