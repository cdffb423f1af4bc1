package io.ddf.ingest.durability;

/**
 * The change log's, the checkpoints' and start-up's figures, read at one moment, for the metrics endpoint (INFO's
 * lines say the same, {@link Durability#infoLines()}).
 *
 * @param logging               whether the filters are written through the change log (policy always or everysec).
 * @param logBytes              bytes of the log's segment files on disk.
 * @param logSegments           its segment files.
 * @param recordsSinceCheckpoint 32-byte record units in the log after the oldest checkpoint: what a replay reads at
 *                              most.
 * @param writable              whether the log can be written (writes are refused while it cannot).
 * @param forces                forces of the log since start.
 * @param forceSeconds          their durations added, seconds.
 * @param lastForceSeconds      the last force's duration, seconds.
 * @param maxForceSeconds       the longest force's, seconds.
 * @param delayedForces         forces slower than {@code --fsync-warn-ms}.
 * @param checkpoints           filter checkpoints since start.
 * @param checkpointFailures    filter checkpoints that failed.
 * @param lastCheckpointSeconds when the last round of checkpoints began, epoch seconds (0: none yet).
 * @param lastCheckpointDuration how long it took, seconds.
 * @param replayedFilters       filters that replayed the log at start.
 * @param replayedRecords       records they replayed.
 * @param replaySeconds         how long the replays took, seconds.
 */
public record PersistenceFigures(boolean logging, long logBytes, int logSegments, long recordsSinceCheckpoint,
    boolean writable, long forces, double forceSeconds, double lastForceSeconds, double maxForceSeconds,
    long delayedForces, long checkpoints, long checkpointFailures, double lastCheckpointSeconds,
    double lastCheckpointDuration, int replayedFilters, long replayedRecords, double replaySeconds)
{
}
