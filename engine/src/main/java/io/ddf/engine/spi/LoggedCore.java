package io.ddf.engine.spi;

/**
 * A core whose changes are not replayed by streaming the element again (its state depends on order, time or
 * generation: fifo-bloom's rotations), so it records them itself (FORMAT-LOG.md's table) and replays its own
 * records. Cores that are not {@code LoggedCore}s get one STREAM record per element judged UNSEEN, replayed by
 * {@link FilterCore#stream}.
 */
public interface LoggedCore extends FilterCore
{
    /**
     * @param recorder where the core's changes go from now on; null: recorded nowhere (sync policy no).
     */
    void recordTo(ChangeRecorder recorder);

    /**
     * Applies one of this core's records to the table as it is (a torn image: each page of any moment since the
     * checkpoint), idempotently (FORMAT-LOG.md).
     *
     * @param op   the record's op code.
     * @param aux  its aux field.
     * @param hash word 1.
     * @param arg  word 2.
     * @param more words 3 to 6 of a two-unit record (empty for one unit).
     * @return whether the record was one of this core's (false: the caller replays it as a STREAM record would be).
     */
    boolean replay(int op, int aux, long hash, long arg, long[] more);
}
