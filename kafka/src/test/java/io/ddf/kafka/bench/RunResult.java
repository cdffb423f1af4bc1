package io.ddf.kafka.bench;

/**
 * One application's run on the bench's input under one guarantee.
 *
 * @param app               "rocksdb", "windowstore", "ddf", or a ddf variant ("ddf-words", "ddf-blocks").
 * @param guarantee         the processing guarantee.
 * @param round             which round (from 1).
 * @param seconds           from the application's RUNNING line to the arrival of its last output record.
 * @param recordsPerSecond  input records over those seconds.
 * @param cpuMicrosPerRecord the application's CPU time (user and system, all threads) over those seconds, per
 *                          input record, in microseconds.
 * @param changelogLogBytes the changelog partitions' size on the broker (before compaction: segments roll at 1 GB).
 * @param changelogRecords  records in the changelog (read committed).
 * @param changelogKvBytes  their keys' and values' bytes.
 * @param peakRssBytes      the application's peak resident set while processing.
 * @param stateBytes        the size of the files under its state directory after a clean close.
 * @param restoreMillis     a new instance's restore of the whole changelog, first start to last end.
 * @param restoredRecords   changelog records it restored.
 * @param restoreRssBytes   that instance's peak resident set.
 * @param missingIds        input ids never output; with a window ({@link WindowTally}): records dropped although
 *                          their id had not come out within W + W/L.
 * @param duplicatedIds     ids output more than once; with a window: records output although their id came out
 *                          less than W before, or output twice.
 * @param passedRecords     with a window: records output; -1 without.
 * @param droppedAfterWindow with a window: records dropped whose id came out between W and W + W/L before (what
 *                          ddf's promise leaves free); -1 without.
 * @param restoreCpuMillis  the restoring instance's CPU time (user and system, all threads) from its start to its
 *                          RUNNING line: its start-up and the restore, what the load of other processes moves less
 *                          than the restore's time; -1 where unknown.
 */
record RunResult(String app, String guarantee, int round, double seconds, double recordsPerSecond,
    double cpuMicrosPerRecord, long changelogLogBytes, long changelogRecords, long changelogKvBytes, long peakRssBytes,
    long stateBytes, long restoreMillis, long restoredRecords, long restoreRssBytes, long missingIds, long duplicatedIds,
    long passedRecords, long droppedAfterWindow, long restoreCpuMillis)
{
    /** The same without a window. */
    RunResult(final String app, final String guarantee, final int round, final double seconds,
        final double recordsPerSecond, final double cpuMicrosPerRecord, final long changelogLogBytes,
        final long changelogRecords, final long changelogKvBytes, final long peakRssBytes, final long stateBytes,
        final long restoreMillis, final long restoredRecords, final long restoreRssBytes, final long missingIds,
        final long duplicatedIds)
    {
        this(app, guarantee, round, seconds, recordsPerSecond, cpuMicrosPerRecord, changelogLogBytes, changelogRecords,
            changelogKvBytes, peakRssBytes, stateBytes, restoreMillis, restoredRecords, restoreRssBytes, missingIds,
            duplicatedIds, -1, -1, -1);
    }
}
