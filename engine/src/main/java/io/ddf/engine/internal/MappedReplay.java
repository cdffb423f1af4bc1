package io.ddf.engine.internal;

import io.ddf.engine.changelog.KindOps;
import io.ddf.engine.changelog.ReplayLanes;
import io.ddf.engine.changelog.ReplayLines;
import io.ddf.engine.spi.CountingCore;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.LoggedCore;
import io.ddf.persistence.log.LogReader;

/** Replays a {@link MappedFilter}'s records onto its table (FORMAT-LOG.md, "Records per kind"). */
final class MappedReplay
{
    private static final long[] NO_MORE = new long[0];

    private MappedReplay()
    {
    }

    /**
     * Replays one of this filter's records onto its table (FORMAT-LOG.md): a core that logs itself replays its own;
     * the others stream the element again (ADD and DELETE: the cuckoo kind's copies).
     *
     * @param core       the filter's core.
     * @param counters   its counters.
     * @param definition its kind.
     * @param frame      the reader at the record.
     */
    static void replay(final FilterCore core, final FilterCounters counters, final KindDefinition definition,
        final LogReader frame)
    {
        final int op = frame.op();
        if (core instanceof LoggedCore logged && logged.replay(op, frame.aux(), frame.hash(), frame.arg(),
            frame.units() == 2 ? new long[] {frame.arg(3), frame.arg(4), frame.arg(5), frame.arg(6)} : NO_MORE))
        {
            return;
        }
        switch (op)
        {
            case KindOps.STREAM -> counters.record(0, 1, core.stream(frame.hash()) ? 1 : 0);
            case KindOps.ADD -> counting(core, definition).add(frame.hash());
            case KindOps.DELETE -> counting(core, definition).delete(frame.hash());
            default -> throw new IllegalStateException("record op " + op + " at log position " + frame.position() +
                " is not one a " + definition.name() + " filter writes");
        }
    }

    /**
     * Touches the table lines a record that streams, adds or deletes an element will reach ({@link FilterCore#touch}:
     * a plain read, the kinds that do not benefit read nothing); other records touch nothing.
     *
     * @param core the filter's core.
     * @param op   the record's op.
     * @param hash its word 1.
     * @return the words read, summed.
     */
    static long touch(final FilterCore core, final int op, final long hash)
    {
        return switch (op)
        {
            case KindOps.STREAM, KindOps.STREAM_AT, KindOps.ADD, KindOps.DELETE -> core.touch(hash);
            default -> 0;
        };
    }

    /**
     * The lanes of a core whose rows' verdicts depend on their own history alone ({@link FilterCore#partitioned}, not
     * a {@link LoggedCore}): its STREAM records, lane p of n streaming those whose row falls in a 4 KiB page of rows
     * of part p (rows' pages dealt round), counting verdicts to itself; its merge adds them to stripe 0 as the
     * sequential replay does one by one. Other records are barriers.
     *
     * @param core     the filter's core.
     * @param counters its counters.
     * @return the lanes, or null.
     */
    static ReplayLanes lanes(final FilterCore core, final FilterCounters counters)
    {
        if (!core.partitioned() || core instanceof LoggedCore)
        {
            return null;
        }
        return new ReplayLanes()
        {
            @Override
            public boolean local(final int op, final int aux, final int units)
            {
                return op == KindOps.STREAM;
            }

            @Override
            public ReplayLane lane(final int index, final int count)
            {
                return new StreamLane(core, counters, index, count);
            }

            @Override
            public ReplayLines lines()
            {
                return new StreamLines(core, counters);
            }
        };
    }

    /**
     * The same STREAM records for a sorted replay ({@link ReplayLines}): an entry a record, its line the element's row
     * ({@link FilterCore#partition}), its payload the hash; applied in row order, each row's elements in log order
     * (the sort is stable), verdicts counted and added to stripe 0 at the merge as {@link StreamLane}'s are. A row
     * past 2^31 - 1 makes the record a barrier. Not the default ({@link #sortedByDefault}): only with
     * {@code -Dddf.replay.sorted=N}.
     */
    private static final class StreamLines implements ReplayLines
    {
        private final FilterCore core;
        private final FilterCounters counters;
        private long elements;
        private long duplicates;

        StreamLines(final FilterCore core, final FilterCounters counters)
        {
            this.core = core;
            this.counters = counters;
        }

        @Override
        public int take(final int op, final int aux, final long hash, final long arg, final long arg3,
            final int[] lines, final long[] payloads, final int at)
        {
            final long row = core.partition(hash);
            if (row > Integer.MAX_VALUE)
            {
                return -1;
            }
            lines[at] = (int)row;
            payloads[at] = hash;
            return 1;
        }

        @Override
        public void apply(final int[] lines, final long[] payloads, final int size)
        {
            long seen = 0;
            for (int i = 0; i < size; i++)
            {
                if (core.stream(payloads[i]))
                {
                    seen++;
                }
            }
            elements += size;
            duplicates += seen;
        }

        /**
         * No: QHT of 2^28 bits, 10^7 records, ReplayVariants in one JVM (bench/results/changelog/
         * replay-2026-11-30T0940.md), 13.8 against 13.7 M records per CPU-second of one lane in log order at load
         * 4.5-5, 10.9 against 12.5 M at load 7: a row's stream costs more than its miss, which the lane's touch
         * ahead already overlaps, and the sort adds its passes.
         */
        @Override
        public boolean sortedByDefault()
        {
            return false;
        }

        @Override
        public void merge()
        {
            if (elements != 0)
            {
                counters.record(0, elements, duplicates);
                elements = 0;
                duplicates = 0;
            }
        }
    }

    /** One lane of {@link #lanes}. */
    private static final class StreamLane implements ReplayLanes.ReplayLane
    {
        /** 512 rows of a word: a page (coarser for wider rows, which is as exact). */
        private static final int PAGE_ROWS_SHIFT = 9;
        private final FilterCore core;
        private final FilterCounters counters;
        private final int part;
        private final int parts;
        private long elements;
        private long duplicates;

        StreamLane(final FilterCore core, final FilterCounters counters, final int part, final int parts)
        {
            this.core = core;
            this.counters = counters;
            this.part = part;
            this.parts = parts;
        }

        private boolean mine(final long hash)
        {
            return (core.partition(hash) >>> PAGE_ROWS_SHIFT) % parts == part;
        }

        @Override
        public long touch(final int op, final int aux, final long hash)
        {
            return mine(hash) ? core.touch(hash) : 0;
        }

        @Override
        public void apply(final int op, final int aux, final long hash, final long arg, final long arg3)
        {
            if (mine(hash))
            {
                elements++;
                if (core.stream(hash))
                {
                    duplicates++;
                }
            }
        }

        @Override
        public void merge()
        {
            if (elements != 0)
            {
                counters.record(0, elements, duplicates);
                elements = 0;
                duplicates = 0;
            }
        }
    }

    private static CountingCore counting(final FilterCore core, final KindDefinition definition)
    {
        if (core instanceof CountingCore counting)
        {
            return counting;
        }
        throw new IllegalStateException(definition.name() + " keeps no copies, yet its log holds an ADD or DELETE");
    }
}
