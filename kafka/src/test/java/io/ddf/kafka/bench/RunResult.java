package io.ddf.kafka.bench;

/**
 * One application's run on the bench's input under one guarantee.
 *
 * @param app               "rocksdb", "ddf", or a ddf variant ("ddf-words", "ddf-blocks").
 * @param guarantee         the processing guarantee.
 * @param round             which round (from 1).
 * @param seconds           from the application's RUNNING line to the arrival of its last output record.
 * @param recordsPerSecond  input records over those seconds.
 * @param changelogLogBytes the changelog partitions' size on the broker (before compaction: segments roll at 1 GB).
 * @param changelogRecords  records in the changelog (read committed).
 * @param changelogKvBytes  their keys' and values' bytes.
 * @param peakRssBytes      the application's peak resident set while processing.
 * @param stateBytes        the size of the files under its state directory after a clean close.
 * @param restoreMillis     a new instance's restore of the whole changelog, first start to last end.
 * @param restoredRecords   changelog records it restored.
 * @param restoreRssBytes   that instance's peak resident set.
 * @param missingIds        input ids never output.
 * @param duplicatedIds     ids output more than once.
 */
record RunResult(String app, String guarantee, int round, double seconds, double recordsPerSecond,
    long changelogLogBytes, long changelogRecords, long changelogKvBytes, long peakRssBytes, long stateBytes,
    long restoreMillis, long restoredRecords, long restoreRssBytes, long missingIds, long duplicatedIds)
{
}
