package io.ddf.persistence.log;

/**
 * A change log's figures, for {@code INFO persistence} and the metrics endpoint.
 *
 * @param bytesOnDisk      bytes of its segment files (headers and preallocated space included).
 * @param segments         segment files.
 * @param start            the oldest position held.
 * @param appended         the appended position (every frame before it complete).
 * @param forced           the position up to which the log is on the device.
 * @param forces           forces ({@code msync}) done since open.
 * @param lastForceNanos   the last force's duration.
 * @param maxForceNanos    the longest force's duration.
 * @param totalForceNanos  all forces' durations added.
 * @param failure          why the log cannot be written now, or null.
 * @param lastForceStartMillis when the last completed force began, epoch ms: every frame appended before then is on
 *                         the device (0: none yet).
 */
public record LogStats(long bytesOnDisk, int segments, long start, long appended, long forced, long forces,
    long lastForceNanos, long maxForceNanos, long totalForceNanos, String failure, long lastForceStartMillis)
{
    /** @return the mean force's duration in nanoseconds (0 before the first). */
    public double meanForceNanos()
    {
        return forces == 0 ? 0 : (double)totalForceNanos / forces;
    }

    /**
     * @param checkpoint a checkpoint position.
     * @return record units (32 bytes) appended since it: the records a replay from there would read, at most.
     */
    public long unitsSince(final long checkpoint)
    {
        return Math.max(0, appended - checkpoint) / LogFormat.UNIT;
    }
}
