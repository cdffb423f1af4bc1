package io.ddf.engine.changelog;

import io.ddf.persistence.log.LogReader;

/** What replays one filter's records onto its table (FORMAT-LOG.md's table, per kind). */
@FunctionalInterface
public interface ReplayTarget
{
    /**
     * Applies one record of the filter, idempotently where the kind's guarantee says exact.
     *
     * @param frame the reader, at the record.
     */
    void apply(LogReader frame);
}
