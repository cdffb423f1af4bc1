package io.ddf.ingest.durability;

import io.ddf.engine.DuplicateFilter;
import io.ddf.persistence.log.Checkpoint;
import io.ddf.persistence.log.Checkpointable;

import java.util.function.LongSupplier;

/**
 * A filter written through the data directory's change log, as the checkpoints see it: fixed-size filters
 * ({@link DuplicateFilter}) and the filters that grow ({@link Checkpointable}) alike.
 */
interface LoggedFilter
{
    /**
     * Checkpoints the filter (FORMAT-LOG.md, "Checkpoints"); writers go on meanwhile.
     *
     * @return what it did.
     * @throws IllegalStateException when the filter was closed meanwhile (deleted, shutting down).
     */
    Checkpoint checkpoint();

    /**
     * @return a position at or before the checkpoint position its header holds: the log from there on may still be
     *         needed by its replay.
     */
    long position();

    /**
     * @param filter a fixed-size filter written through the log.
     * @return it, its position the one its open started from until its first checkpoint here.
     */
    static LoggedFilter of(final DuplicateFilter filter)
    {
        return new LoggedFilter()
        {
            /** The open's checkpoint (at or before what the header holds), then each checkpoint's. */
            private volatile long position = filter.recovery().checkpoint();

            @Override
            public Checkpoint checkpoint()
            {
                final Checkpoint done = filter.checkpoint();
                position = done.position();
                return done;
            }

            @Override
            public long position()
            {
                return position;
            }
        };
    }

    /**
     * @param filter a filter that grows, written through the log.
     * @return it.
     */
    static LoggedFilter of(final Checkpointable filter)
    {
        return new LoggedFilter()
        {
            @Override
            public Checkpoint checkpoint()
            {
                return filter.checkpoint();
            }

            @Override
            public long position()
            {
                return filter.checkpointPosition();
            }
        };
    }

    /**
     * @param sync forces a filter not written through a log ({@code --fsync no}): its {@code sync()}, which writes
     *             the live table's changed chunks into the data directory's file and forces it.
     * @return it, at position 0 (there is no log to keep for it).
     */
    static LoggedFilter unlogged(final LongSupplier sync)
    {
        return new LoggedFilter()
        {
            @Override
            public Checkpoint checkpoint()
            {
                final long millis = System.currentTimeMillis();
                final long started = System.nanoTime();
                final long forced = sync.getAsLong();
                return new Checkpoint(0, millis, System.nanoTime() - started, forced >= 0);
            }

            @Override
            public long position()
            {
                return 0;
            }
        };
    }
}
