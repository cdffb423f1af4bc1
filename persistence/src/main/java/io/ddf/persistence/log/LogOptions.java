package io.ddf.persistence.log;

/**
 * How a change log is opened.
 *
 * @param segmentBytes record bytes per segment file (after its 4096-byte header), a positive multiple of 4096.
 * @param owned        whether one thread at a time appends (an embedded single-writer filter): appends then take no
 *                     locked instruction (plain and release stores); otherwise any thread may append, each frame
 *                     reserved by one atomic add.
 * @param prefault     whether the log's {@code ddf-log-ahead} thread works ahead of the appends: it readies the
 *                     staging ring's pages on its first lap and copies complete frames into the segments a chunk at a
 *                     time; without it the copies happen when the log is forced, read or its ring is full.
 * @param stagingBytes the staging ring's bytes ({@link StagingRing}): a power of two, at least 4096.
 */
public record LogOptions(long segmentBytes, boolean owned, boolean prefault, long stagingBytes)
{
    /** Record bytes per segment unless set: 64 MiB, two million one-unit frames. */
    public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;

    /** The defaults: 64 MiB segments, shared by threads, worked ahead, a 4 MiB staging ring. */
    public static final LogOptions DEFAULT = new LogOptions(DEFAULT_SEGMENT_BYTES, false, true,
        StagingRing.DEFAULT_BYTES);

    /** Checks the values. */
    public LogOptions
    {
        if (segmentBytes <= 0 || segmentBytes % 4096 != 0)
        {
            throw new IllegalArgumentException("a log segment's bytes must be a positive multiple of 4096, not " +
                segmentBytes);
        }
        if (stagingBytes < 4096 || Long.bitCount(stagingBytes) != 1)
        {
            throw new IllegalArgumentException("a change log's staging ring must be a power of two of at least " +
                "4096 bytes, not " + stagingBytes);
        }
    }

    /** @return these options for a log one thread at a time appends to. */
    public LogOptions asOwned()
    {
        return new LogOptions(segmentBytes, true, prefault, stagingBytes);
    }

    /**
     * @param bytes record bytes per segment.
     * @return these options with that segment size.
     */
    public LogOptions withSegmentBytes(final long bytes)
    {
        return new LogOptions(bytes, owned, prefault, stagingBytes);
    }

    /**
     * @param on whether the log's thread works ahead of the appends.
     * @return these options so.
     */
    public LogOptions withPrefault(final boolean on)
    {
        return new LogOptions(segmentBytes, owned, on, stagingBytes);
    }

    /**
     * @param bytes the staging ring's bytes.
     * @return these options with that ring.
     */
    public LogOptions withStagingBytes(final long bytes)
    {
        return new LogOptions(segmentBytes, owned, prefault, bytes);
    }
}
