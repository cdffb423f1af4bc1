package io.ddf.ingest.durability;

import io.ddf.engine.DuplicateFilter;
import io.ddf.persistence.Syncable;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.Checkpointable;

/** What a commit forces once: the data directory's change log (a seam for tests: a log that fails). */
interface CommitLog
{
    /**
     * Forces every record appended so far to the device.
     *
     * @throws RuntimeException when it cannot: nothing after the last force is acknowledged.
     */
    void force();

    /** @return whether this filter's writes are in the log (forced with it), not synced by itself. */
    boolean holds(Syncable filter);

    /** @return the log's directory (messages). */
    Object directory();

    /** @return the data directory's change log as a commit forces it. */
    static CommitLog of(final ChangeLog log)
    {
        return new CommitLog()
        {
            @Override
            public void force()
            {
                log.force(log.appended()); // a record of every write stored before this commit
            }

            @Override
            public boolean holds(final Syncable filter)
            {
                return filter instanceof Checkpointable c ? c.log() != null :
                    filter instanceof DuplicateFilter d && d.changeLog() != null;
            }

            @Override
            public Object directory()
            {
                return log.directory();
            }
        };
    }
}
