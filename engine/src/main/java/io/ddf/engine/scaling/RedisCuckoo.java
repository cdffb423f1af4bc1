package io.ddf.engine.scaling;

import io.ddf.engine.changelog.KindOps;
import io.ddf.engine.hash.Murmur2;
import io.ddf.engine.redisbloom.CuckooHeader;
import io.ddf.engine.redisbloom.DumpChunks;
import io.ddf.persistence.platform.RawMemory;
import io.ddf.persistence.log.LogReader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.List;

/**
 * RedisBloom's cuckoo filter, in a mapped file that grows: sub-filters of one-byte fingerprints, each
 * {@code expansion} times the buckets of the one before, with RedisBloom 2.4's hashing, placement, kicks, deletion,
 * counting and compaction ({@code cuckoo.c}), so that a filter loaded from a RedisBloom dump answers as it did there
 * and keeps the same bytes under the same commands.
 *
 * <p>An item hashes to {@code h = MurmurHash64A(item, seed 0)}; its fingerprint is {@code h mod 255 + 1} (never 0,
 * the empty slot), its buckets {@code h} and {@code h ^ (fp · 0x5bd1e995)}, each taken modulo the sub-filter's
 * bucket count. An insertion takes a free slot in either bucket of any sub-filter, newest first; else it kicks in the
 * newest sub-filter, at most {@code maxIterations} times, and undoes the kicks when they find no room; then, unless
 * the expansion is 0, a new sub-filter is appended and the insertion tried again.
 *
 * <p>Every operation takes the filter's lock: kicks move fingerprints between buckets, and a lookup must not miss
 * the one in hand.
 */
public final class RedisCuckoo extends ScalingFilter
{
    /** The family code of the file's header. */
    public static final int FAMILY = 2;
    /** The segment kind of a sub-filter. */
    static final int SUBFILTER_KIND = 2;
    private static final long ALT_MULTIPLIER = 0x5bd1e995L;
    static final int ITEMS = 0;
    static final int DELETES = 1;

    /** What an insertion did. */
    public enum InsertResult
    {
        /** The fingerprint is in (CF.ADD's 1). */
        INSERTED,
        /** CF.ADDNX found the item (0). */
        EXISTS,
        /** No room and the filter may not grow (CF.ADD's {@code Filter is full}, CF.INSERT's -1). */
        NO_SPACE
    }

    private final long buckets;
    private final int bucketSize;
    private final int maxIterations;
    private final int expansion;
    private long[] filterBuckets;
    private long[] data;

    private RedisCuckoo(final ChainFile file)
    {
        super(file);
        this.buckets = file.param(0);
        final long packed = file.param(1);
        this.bucketSize = (int)(packed & 0xFFFF);
        this.maxIterations = (int)(packed >>> 16 & 0xFFFF);
        this.expansion = (int)(packed >>> 32 & 0xFFFF);
        final List<ChainFile.Segment> segments = file.segments();
        filterBuckets = new long[segments.size()];
        data = new long[segments.size()];
        for (int i = 0; i < segments.size(); i++)
        {
            final ChainFile.Segment segment = segments.get(i);
            if (segment.kind() != SUBFILTER_KIND || segment.shape(0) * bucketSize != segment.dataBytes())
            {
                throw new IllegalArgumentException("layer " + i + " is not a cuckoo sub-filter of this filter");
            }
            filterBuckets[i] = segment.shape(0);
            data[i] = segment.data();
        }
        if (!file.afterPowerCut())
        {
            header().validate(); // else torn by a power cut: the counters are checked once the log's replay ran
        }
    }

    @Override
    void checkAfterReplay()
    {
        header().validate();
    }

    /**
     * Makes a new, empty filter as {@code CF.RESERVE} does.
     *
     * @param path          the file; must not exist.
     * @param capacity      items asked for, at least {@code 2 · bucketSize}.
     * @param bucketSize    fingerprints per bucket, 1 to 255.
     * @param maxIterations most kicks of one insertion, 1 to 65535.
     * @param expansion     growth of each new sub-filter (rounded up to a power of two; 0: never grows).
     * @return the filter, open.
     */
    public static RedisCuckoo create(final Path path, final long capacity, final int bucketSize,
        final int maxIterations, final int expansion)
    {
        final long buckets = Math.max(1, nextPowerOfTwo(capacity / bucketSize));
        return fromHeader(path, new CuckooHeader(0, buckets, 0, 1, bucketSize, maxIterations,
            (int)nextPowerOfTwo(expansion)));
    }

    /**
     * @param n a count.
     * @return the least power of two at least {@code n}, 0 for 0 (RedisBloom's rounding of bucket counts and
     *         expansions).
     */
    public static long nextPowerOfTwo(final long n)
    {
        return n <= 1 ? n : Long.highestOneBit(n - 1) << 1;
    }

    /**
     * Makes a filter with the sub-filters a dump's header chunk names, empty until the data chunks come.
     *
     * @param path   the file; must not exist.
     * @param header the header, validated.
     * @return the filter, open.
     */
    public static RedisCuckoo fromHeader(final Path path, final CuckooHeader header)
    {
        header.validate();
        final ChainFile file = ChainFile.create(path, FAMILY, chain ->
        {
            chain.param(0, header.buckets());
            chain.param(1, header.bucketSize() | (long)header.maxIterations() << 16 | (long)header.expansion() << 32);
            chain.counter(ITEMS, header.items());
            chain.counter(DELETES, header.deletes());
            for (int i = 0; i < header.filters(); i++)
            {
                final long filterBuckets = header.bucketsOf(i);
                chain.append(SUBFILTER_KIND, filterBuckets * header.bucketSize(), new long[] {filterBuckets}, 0);
            }
        });
        final RedisCuckoo made = new RedisCuckoo(file);
        made.created();
        return made;
    }

    /**
     * @param path the file of a cuckoo filter.
     * @return the filter, open.
     */
    public static RedisCuckoo open(final Path path)
    {
        final ChainFile file = ChainFile.open(path, FAMILY);
        try
        {
            return new RedisCuckoo(file);
        }
        catch (final RuntimeException ex)
        {
            file.close();
            throw new io.ddf.persistence.FilterFileException(io.ddf.persistence.FilterFileException.Reason.CORRUPT,
                path, ex.getMessage(), ex);
        }
    }

    /**
     * @param item   the item's bytes.
     * @param offset of the first.
     * @param length how many.
     * @return its 64-bit hash, as RedisBloom's cuckoo filter takes it.
     */
    public static long hash(final DirectBuffer item, final int offset, final int length)
    {
        return Murmur2.hash64(item, offset, length, 0);
    }

    /**
     * @param item the item's bytes.
     * @return its hash.
     */
    public static long hash(final byte[] item)
    {
        return Murmur2.hash64(item, 0, item.length, 0);
    }

    private static int fingerprint(final long hash)
    {
        return (int)Long.remainderUnsigned(hash, 255) + 1;
    }

    private static long altHash(final int fp, final long index)
    {
        return index ^ (fp * ALT_MULTIPLIER);
    }

    private long slot(final int filter, final long hash)
    {
        return data[filter] + Long.remainderUnsigned(hash, filterBuckets[filter]) * bucketSize;
    }

    private static int get(final long address)
    {
        return RawMemory.getBytePlain(address) & 0xFF;
    }

    /** Sets a slot and, when written through a log, records it (FORMAT-LOG.md, CF_SLOT: exact over a torn image). */
    private void put(final long address, final int fp)
    {
        RawMemory.putBytePlain(address, (byte)fp);
        if (logged())
        {
            // the sub-filters are separate mappings, in no order of address: the one whose data holds the slot
            int layer = data.length - 1;
            while (layer > 0 && (address < data[layer] || address >= data[layer] + filterBuckets[layer] * bucketSize))
            {
                layer--;
            }
            record(KindOps.CF_SLOT, layer | fp << 10, address - data[layer], 0);
        }
    }

    /** Records the counters as they are now (absolute values: replay sets them). */
    private void recordCounters()
    {
        if (logged())
        {
            record(KindOps.CF_COUNTERS, 0, file.counter(ITEMS), file.counter(DELETES));
        }
    }

    @Override
    void replay(final LogReader frame)
    {
        CuckooReplay.replay(this, frame);
    }

    private long find(final long bucket, final int fp)
    {
        for (int i = 0; i < bucketSize; i++)
        {
            if (get(bucket + i) == fp)
            {
                return bucket + i;
            }
        }
        return 0;
    }

    private long findFree(final int filter, final long h1, final long h2)
    {
        final long free = find(slot(filter, h1), 0);
        return free != 0 ? free : find(slot(filter, h2), 0);
    }

    /** @return the address of a byte of sub-filter {@code layer}'s data (replay: checked to be in it). */
    long dataAddress(final int layer, final long offset)
    {
        return data[layer] + offset;
    }

    /**
     * @param hash the item's hash.
     * @return whether its fingerprint is in one of its buckets of any sub-filter.
     */
    public synchronized boolean contains(final long hash)
    {
        final int fp = fingerprint(hash);
        final long h2 = altHash(fp, hash);
        for (int f = 0; f < data.length; f++)
        {
            if (find(slot(f, hash), fp) != 0 || find(slot(f, h2), fp) != 0)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param hash the item's hash.
     * @return the fingerprints equal to its own in its buckets of every sub-filter (CF.COUNT).
     */
    public synchronized long count(final long hash)
    {
        final int fp = fingerprint(hash);
        final long h2 = altHash(fp, hash);
        long count = 0;
        for (int f = 0; f < data.length; f++)
        {
            count += countIn(slot(f, hash), fp) + countIn(slot(f, h2), fp);
        }
        return count;
    }

    private long countIn(final long bucket, final int fp)
    {
        long count = 0;
        for (int i = 0; i < bucketSize; i++)
        {
            count += get(bucket + i) == fp ? 1 : 0;
        }
        return count;
    }

    /**
     * @param hash   the item's hash.
     * @param unique whether to leave the filter alone when the item is found (CF.ADDNX).
     * @return what the insertion did.
     */
    public synchronized InsertResult insert(final long hash, final boolean unique)
    {
        changed();
        if (unique && contains(hash))
        {
            return InsertResult.EXISTS;
        }
        final int fp = fingerprint(hash);
        return insertFingerprint(fp, hash, altHash(fp, hash));
    }

    private InsertResult insertFingerprint(final int fp, final long h1, final long h2)
    {
        for (int f = data.length - 1; f >= 0; f--)
        {
            final long free = findFree(f, h1, h2);
            if (free != 0)
            {
                put(free, fp);
                file.counter(ITEMS, file.counter(ITEMS) + 1);
                recordCounters();
                return InsertResult.INSERTED;
            }
        }
        if (kick(fp, h1))
        {
            file.counter(ITEMS, file.counter(ITEMS) + 1);
            recordCounters();
            return InsertResult.INSERTED;
        }
        if (expansion == 0)
        {
            return InsertResult.NO_SPACE;
        }
        grow();
        return insertFingerprint(fp, h1, h2);
    }

    /** Kicks in the newest sub-filter; undoes the kicks when they find no room. */
    private boolean kick(final int fingerprint, final long h1)
    {
        final int newest = data.length - 1;
        final long count = filterBuckets[newest];
        final long base = data[newest];
        int fp = fingerprint;
        int victim = 0;
        long index = Long.remainderUnsigned(h1, count);
        for (int i = 0; i < maxIterations; i++)
        {
            final long bucket = base + index * bucketSize;
            final int displaced = get(bucket + victim);
            put(bucket + victim, fp);
            fp = displaced;
            index = Long.remainderUnsigned(altHash(fp, index), count);
            final long free = find(base + index * bucketSize, 0);
            if (free != 0)
            {
                put(free, fp);
                return true;
            }
            victim = (victim + 1) % bucketSize;
        }
        for (int i = 0; i < maxIterations; i++)
        {
            victim = (victim + bucketSize - 1) % bucketSize;
            index = Long.remainderUnsigned(altHash(fp, index), count);
            final long at = base + index * bucketSize + victim;
            final int displaced = get(at);
            put(at, fp);
            fp = displaced;
        }
        return false;
    }

    private void grow()
    {
        long grownBuckets = buckets; // buckets * expansion^filters
        for (int i = 0; i < data.length; i++)
        {
            grownBuckets = Math.multiplyExact(grownBuckets, expansion);
        }
        appendSubFilter(grownBuckets);
        record(KindOps.CF_GROW, data.length - 1, grownBuckets, 0);
    }

    void appendSubFilter(final long grownBuckets)
    {
        final ChainFile.Segment segment = file.append(SUBFILTER_KIND, grownBuckets * bucketSize,
            new long[] {grownBuckets}, 0);
        filterBuckets = java.util.Arrays.copyOf(filterBuckets, filterBuckets.length + 1);
        data = java.util.Arrays.copyOf(data, data.length + 1);
        filterBuckets[filterBuckets.length - 1] = grownBuckets;
        data[data.length - 1] = segment.data();
    }

    void removeNewest()
    {
        file.removeLast();
        filterBuckets = java.util.Arrays.copyOf(filterBuckets, filterBuckets.length - 1);
        data = java.util.Arrays.copyOf(data, data.length - 1);
    }

    /**
     * Deletes one copy of the item's fingerprint, newest sub-filter first; compacts when deletions pass a tenth of
     * the items and there is more than one sub-filter (as RedisBloom does).
     *
     * @param hash the item's hash.
     * @return whether a copy was found and deleted.
     */
    public synchronized boolean delete(final long hash)
    {
        changed();
        final int fp = fingerprint(hash);
        final long h2 = altHash(fp, hash);
        for (int f = data.length - 1; f >= 0; f--)
        {
            long at = find(slot(f, hash), fp);
            if (at == 0)
            {
                at = find(slot(f, h2), fp);
            }
            if (at != 0)
            {
                put(at, 0);
                final long items = file.counter(ITEMS) - 1;
                file.counter(ITEMS, items);
                final long deletes = file.counter(DELETES) + 1;
                file.counter(DELETES, deletes);
                recordCounters();
                if (data.length > 1 && deletes > (double)items * 0.10)
                {
                    compact(false);
                }
                return true;
            }
        }
        return false;
    }

    /**
     * Moves fingerprints of the newer sub-filters into older ones where their buckets have room, dropping the newest
     * sub-filters once empty, and resets the deletion count (CF.COMPACT: {@code keepGoing} true).
     *
     * @param keepGoing whether to go on to older sub-filters once one could not be emptied.
     */
    public synchronized void compact(final boolean keepGoing)
    {
        changed();
        for (int f = data.length - 1; f >= 1; f--)
        {
            if (!compactOne(f) && !keepGoing)
            {
                break;
            }
        }
        file.counter(DELETES, 0);
        recordCounters();
    }

    private boolean compactOne(final int filter)
    {
        boolean emptied = true;
        final long base = data[filter];
        for (long bucket = 0; bucket < filterBuckets[filter]; bucket++)
        {
            for (int s = 0; s < bucketSize; s++)
            {
                final long at = base + bucket * bucketSize + s;
                final int fp = get(at);
                if (fp != 0 && !relocate(fp, bucket, filter, at))
                {
                    emptied = false;
                }
            }
        }
        if (emptied && filter == data.length - 1)
        {
            removeNewest();
            record(KindOps.CF_SHRINK, data.length, 0, 0);
        }
        return emptied;
    }

    private boolean relocate(final int fp, final long bucket, final int filter, final long at)
    {
        final long h2 = altHash(fp, bucket);
        for (int f = 0; f < filter; f++)
        {
            final long free = findFree(f, bucket, h2);
            if (free != 0)
            {
                put(free, fp);
                put(at, 0);
                return true;
            }
        }
        return false;
    }

    @Override
    public long items()
    {
        return header().items();
    }

    /** @return the filter as a dump's header chunk describes it. */
    public synchronized CuckooHeader header()
    {
        return new CuckooHeader(file.counter(ITEMS), buckets, file.counter(DELETES), data.length, bucketSize,
            maxIterations, expansion);
    }

    /** @return sub-filters. */
    public synchronized int filters()
    {
        return data.length;
    }

    /** @return CF.INFO's Size: RedisBloom 2.4's structures and every bucket. */
    public synchronized long infoSize()
    {
        long slots = 0;
        for (final long count : filterBuckets)
        {
            slots += count * bucketSize;
        }
        return CuckooHeader.INFO_FILTER_OVERHEAD + (long)CuckooHeader.INFO_SUBFILTER_OVERHEAD * data.length + slots;
    }

    /** @return CF.DEBUG's line, in RedisBloom's words. */
    public synchronized String debug()
    {
        final CuckooHeader h = header();
        return "bktsize:" + h.bucketSize() + " buckets:" + h.buckets() + " items:" + h.items() + " deletes:" +
            h.deletes() + " filters:" + h.filters() + " max_iterations:" + h.maxIterations() + " expansion:" +
            h.expansion();
    }

    long[] filterBytes()
    {
        final long[] bytes = new long[data.length];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = filterBuckets[i] * bucketSize;
        }
        return bytes;
    }

    /**
     * @param pos a {@code CF.SCANDUMP} position, at least 1.
     * @return the data chunk there, or null at the end.
     */
    public synchronized DumpChunk dump(final long pos)
    {
        final DumpChunks.Chunk chunk = DumpChunks.cuckooChunk(filterBytes(), pos, DumpChunks.MAX_CHUNK);
        if (chunk == null)
        {
            return null;
        }
        final byte[] bytes = new byte[(int)chunk.length()];
        new UnsafeBuffer(data[chunk.layer()] + chunk.offset(), bytes.length).getBytes(0, bytes);
        return new DumpChunk(chunk.next(), bytes);
    }

    /**
     * Loads a {@code CF.LOADCHUNK} data chunk into its place; nothing is written when it has none.
     *
     * @param pos    the position it came with.
     * @param chunk  its bytes.
     * @param offset of the first.
     * @param length how many.
     * @throws io.ddf.engine.redisbloom.RedisBloomFormatException {@code Couldn't load chunk!} when it has no place.
     */
    public void load(final long pos, final DirectBuffer chunk, final int offset, final int length)
    {
        synchronized (this)
        {
            changed();
            final DumpChunks.Chunk target = DumpChunks.cuckooTarget(filterBytes(), pos, length);
            new UnsafeBuffer(data[target.layer()] + target.offset(), length).putBytes(0, chunk, offset, length);
        }
        if (logged())
        {
            checkpoint(); // a chunk is not logged: the file is made durable before the reply (FORMAT-LOG.md)
        }
    }
}
