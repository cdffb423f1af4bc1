package io.ddf.engine;

/**
 * What the background syncs ({@link SyncPolicy#EVERYSEC}) did in this process: for reports such as the daemon's
 * {@code INFO persistence}.
 *
 * @param cycles          once-a-second cycles run.
 * @param lastMillis      how long the last cycle took, in milliseconds.
 * @param lastStartMillis when it started, epoch milliseconds; 0 before the first.
 * @param lastFilters     filters it forced (unchanged ones cost nothing and do not count).
 * @param lastPages       changed 4 KiB pages it forced.
 * @param delayed         cycles that took longer than {@code boundMillis}: while they last, a power cut may take more
 *                        than the last two seconds.
 * @param failures        syncs that failed (the pages stay marked for the next cycle).
 * @param lastFailure     the last failure, naming the file, or null.
 * @param boundMillis     how long a cycle may take before it counts as delayed.
 */
public record SyncStats(long cycles, double lastMillis, long lastStartMillis, int lastFilters, long lastPages,
    long delayed, long failures, String lastFailure, long boundMillis)
{
}
