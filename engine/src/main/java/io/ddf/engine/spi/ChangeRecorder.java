package io.ddf.engine.spi;

/**
 * Where a kind that records its own changes (a {@link LoggedCore}) appends them: one filter's records in its change
 * log (FORMAT-LOG.md). Each call appends one frame after the change it records, without a lock (the caller holds
 * whatever lock orders the kind's changes, when its order matters).
 */
public interface ChangeRecorder
{
    /**
     * Appends a one-unit record.
     *
     * @param op   the op code (FORMAT-LOG.md's table).
     * @param aux  the aux field (22 bits).
     * @param hash word 1.
     * @param arg  word 2.
     * @return the record's end position in the log.
     */
    long record(int op, int aux, long hash, long arg);

    /**
     * Appends a two-unit record.
     *
     * @return the record's end position in the log.
     */
    long record2(int op, int aux, long hash, long arg, long arg3, long arg4, long arg5, long arg6);
}
