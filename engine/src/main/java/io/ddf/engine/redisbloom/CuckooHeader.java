package io.ddf.engine.redisbloom;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The first chunk of RedisBloom's {@code CF.SCANDUMP} (position 1): 38 bytes, little-endian, unpadded: items u64,
 * buckets of the first sub-filter u64, deletions u64, sub-filters u64, bucket size u16, most kicks u16, expansion u16.
 * Sub-filter i has {@code buckets · expansion^i} buckets of {@code bucketSize} one-byte fingerprints.
 *
 * @param items         fingerprints held.
 * @param buckets       buckets of the first sub-filter, a power of two.
 * @param deletes       deletions since the last compaction.
 * @param filters       sub-filters.
 * @param bucketSize    fingerprints per bucket.
 * @param maxIterations most kicks of one insertion.
 * @param expansion     growth factor of each new sub-filter's bucket count, a power of two or 0.
 */
public record CuckooHeader(long items, long buckets, long deletes, long filters, int bucketSize, int maxIterations,
    int expansion)
{
    /** Bytes of the header chunk. */
    public static final int BYTES = 38;
    /** Most sub-filters: RedisBloom refuses to add to a filter of this many ({@code Maximum expansions reached}). */
    public static final int MAX_FILTERS = 32;
    /** Most bytes of one sub-filter ddf maps (RedisBloom's bucket index is 32 bits: 2^32 buckets of 255). */
    public static final long MAX_FILTER_BYTES = 255L << 32;
    /** What RedisBloom 2.4's {@code CF.INFO} counts for the filter's structure, besides the buckets. */
    public static final int INFO_FILTER_OVERHEAD = 40;
    /** What it counts per sub-filter's structure. */
    public static final int INFO_SUBFILTER_OVERHEAD = 16;

    /** @return the header's bytes, as RedisBloom writes them. */
    public byte[] encode()
    {
        return ByteBuffer.allocate(BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(items).putLong(buckets)
            .putLong(deletes).putLong(filters).putShort((short)bucketSize).putShort((short)maxIterations)
            .putShort((short)expansion).array();
    }

    /**
     * @param filter a sub-filter's index.
     * @return its bucket count.
     */
    public long bucketsOf(final int filter)
    {
        long buckets = this.buckets;
        for (int i = 0; i < filter; i++)
        {
            buckets *= expansion;
        }
        return buckets;
    }

    /**
     * Reads a header chunk. RedisBloom 2.4 checks only its length; ddf also refuses what would make a filter it
     * cannot hold or answer from (a bucket count not a power of two, sizes out of RedisBloom's bounds, more items
     * than slots), since it maps what the header says before the data arrives.
     *
     * @param chunk the chunk's bytes.
     * @return the header.
     * @throws RedisBloomFormatException {@code Invalid header} with what is wrong.
     */
    public static CuckooHeader decode(final byte[] chunk)
    {
        if (chunk.length != BYTES)
        {
            throw bad("a header chunk of " + chunk.length + " bytes (" + BYTES + " expected)");
        }
        final ByteBuffer in = ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN);
        final CuckooHeader header = new CuckooHeader(in.getLong(), in.getLong(), in.getLong(), in.getLong(),
            in.getShort() & 0xFFFF, in.getShort() & 0xFFFF, in.getShort() & 0xFFFF);
        header.validate();
        return header;
    }

    /**
     * @throws RedisBloomFormatException {@code Invalid header} naming the first rule broken.
     */
    public void validate()
    {
        if (filters < 1 || filters > MAX_FILTERS)
        {
            throw bad(filters + " sub-filters (1 to " + MAX_FILTERS + ")");
        }
        if (bucketSize < 1 || bucketSize > 255)
        {
            throw bad("bucket size " + bucketSize + " (1 to 255)");
        }
        if (maxIterations < 1)
        {
            throw bad("max iterations " + maxIterations + " (at least 1)");
        }
        if (buckets < 1 || Long.bitCount(buckets) != 1)
        {
            throw bad(buckets + " buckets (a power of two expected)");
        }
        if (expansion != 0 && Integer.bitCount(expansion) != 1 || expansion == 0 && filters > 1)
        {
            throw bad("expansion " + expansion + " with " + filters + " sub-filters");
        }
        long slots = 0;
        for (int i = 0; i < filters; i++)
        {
            final long filterBuckets = bucketsOf(i);
            if (filterBuckets <= 0 || filterBuckets > (1L << 32) ||
                filterBuckets * bucketSize > MAX_FILTER_BYTES)
            {
                throw bad("sub-filter " + i + " of " + filterBuckets + " buckets is too large");
            }
            slots += filterBuckets * bucketSize;
        }
        if (items < 0 || items > slots || deletes < 0)
        {
            throw bad(items + " items and " + deletes + " deletions in " + slots + " slots");
        }
    }

    private static RedisBloomFormatException bad(final String detail)
    {
        return new RedisBloomFormatException("Invalid header", detail);
    }
}
