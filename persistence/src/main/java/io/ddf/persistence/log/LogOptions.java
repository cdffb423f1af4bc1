package io.ddf.persistence.log;

/**
 * How a change log is opened.
 *
 * @param segmentBytes record bytes per segment file (after its 4096-byte header), a positive multiple of 4096.
 * @param owned        whether one thread at a time appends (an embedded single-writer filter): appends then take no
 *                     locked instruction (plain and release stores); otherwise any thread may append, each frame
 *                     reserved by one atomic add.
 * @param prefault     whether the record pages are readied ahead of the appends, a chunk at a time on the
 *                     {@code ddf-log-ahead} thread (each page written once through the mapping: LogSegment's
 *                     {@code readyForAppends}), so that an append takes no page fault and no first write.
 */
public record LogOptions(long segmentBytes, boolean owned, boolean prefault)
{
    /** Record bytes per segment unless set: 64 MiB, two million one-unit frames. */
    public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;

    /** The defaults: 64 MiB segments, shared by threads, prefaulted. */
    public static final LogOptions DEFAULT = new LogOptions(DEFAULT_SEGMENT_BYTES, false, true);

    /** Checks the values. */
    public LogOptions
    {
        if (segmentBytes <= 0 || segmentBytes % 4096 != 0)
        {
            throw new IllegalArgumentException("a log segment's bytes must be a positive multiple of 4096, not " +
                segmentBytes);
        }
    }

    /** @return these options for a log one thread at a time appends to. */
    public LogOptions asOwned()
    {
        return new LogOptions(segmentBytes, true, prefault);
    }

    /**
     * @param bytes record bytes per segment.
     * @return these options with that segment size.
     */
    public LogOptions withSegmentBytes(final long bytes)
    {
        return new LogOptions(bytes, owned, prefault);
    }

    /**
     * @param on whether to prefault new segments.
     * @return these options so.
     */
    public LogOptions withPrefault(final boolean on)
    {
        return new LogOptions(segmentBytes, owned, on);
    }
}
