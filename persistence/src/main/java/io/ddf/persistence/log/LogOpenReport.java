package io.ddf.persistence.log;

/**
 * What opening a change log found (and cut).
 *
 * @param created        whether the log was made now (no segment was there).
 * @param segments       segment files found.
 * @param start          the oldest position still held.
 * @param end            the log's end: the first position where no valid frame starts; appends continue there.
 * @param cutBytes       bytes of the segments found that lay at or after the end (a torn tail, preallocation).
 * @param cutFrames      valid frames found after the first invalid one (written by threads whose earlier neighbour
 *                       never completed, or pages a power cut kept out of order): cut, never replayed.
 * @param cutSegments    segment files deleted because they started at or after the end.
 * @param recoveredBytes frames' bytes copied from the staging ring (stored by a process that died before it copied
 *                       them into the segments), part of the log from now on.
 * @param nanos          how long the open took.
 */
public record LogOpenReport(boolean created, int segments, long start, long end, long cutBytes, long cutFrames,
    int cutSegments, long recoveredBytes, long nanos)
{
    /** @return one line for a log. */
    public String describe()
    {
        if (created)
        {
            return "change log created";
        }
        return "change log: " + segments + " segment(s), positions " + start + " to " + end +
            (cutFrames > 0 ? ", " + cutFrames + " frame(s) after a hole cut (never acknowledged under always)" : "") +
            (cutSegments > 0 ? ", " + cutSegments + " segment(s) after the end deleted" : "") +
            (recoveredBytes > 0 ? ", " + recoveredBytes + " bytes of frames taken from the staging ring" : "") +
            String.format(java.util.Locale.ROOT, " (%.1f ms)", nanos / 1e6);
    }
}
