package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.Filters;
import io.ddf.engine.Operation;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.redisbloom.CuckooInsertRequest;
import io.ddf.ingest.redisbloom.CuckooReserveRequest;
import io.ddf.ingest.redisbloom.Errors;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterStore;
import io.ddf.ingest.store.FilterTypes;
import io.ddf.ingest.store.KeyNames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * RedisBloom's CF.* commands on ddf's streaming cuckoo filter (the {@code cuckoo} kind: what CF.* make under
 * {@code serve --past-capacity forget}; by default they make RedisBloom's own cuckoo filter): {@link CuckooCommands}
 * parses each command once and routes each key here or to RedisBloom's semantics. CF.ADDNX, CF.INSERTNX, CF.EXISTS
 * and CF.MEXISTS are the streaming filter's own stream and contains, judged where {@code serve --execution} says,
 * like BF.*. CF.ADD and CF.INSERT (a copy even
 * when present), CF.DEL and CF.COUNT work on the filter's fingerprints on the event loop, after draining what the
 * pipeline holds for the filter, so that they see every earlier command of the connection.
 *
 * <p>Differences from RedisBloom: the filter never grows (EXPANSION n ≥ 1 is refused as for BF.RESERVE) and never
 * answers "Filter is full": past its capacity an insertion drops an older fingerprint after MAXITERATIONS
 * displacements (the streaming cuckoo filter), so CF.INSERT's -1 never occurs. Fingerprints are 16 bits
 * (RedisBloom's are 8), so the false positive rate is about 2·BUCKETSIZE / 65535.
 */
final class StreamingCuckoo
{
    /** ddf's fingerprint width for CF filters: a bucket of 2 fills half a word, of 4 a word. */
    static final int FINGERPRINT_BITS = 16;
    private static final int MAX_BUCKET_SIZE = 64;

    private final ServerConfig config;
    private final java.util.function.Consumer<DuplicateFilter> drain;
    private final FilterStore store;

    /**
     * @param store  the filters.
     * @param config the sizes of filters made on first use.
     * @param drain  returns once every element published so far for a filter has been judged.
     */
    StreamingCuckoo(final FilterStore store, final ServerConfig config,
        final java.util.function.Consumer<DuplicateFilter> drain)
    {
        this.config = config;
        this.drain = drain;
        this.store = store;
    }

    /** CF.ADD: a copy of the item (1), the filter made on first use. */
    void add(final Session session, final ByteBuf[] args)
    {
        addCopies(session, args, 2, false, true);
    }

    /** CF.ADDNX: the item unless present (1 added, 0 present). */
    void addnx(final Session session, final ByteBuf[] args)
    {
        stream(session, args, 2, false);
    }

    /** CF.EXISTS. */
    void exists(final Session session, final ByteBuf[] args)
    {
        contains(session, args, false);
    }

    /** CF.MEXISTS. */
    void mexists(final Session session, final ByteBuf[] args)
    {
        contains(session, args, true);
    }

    /** CF.DEBUG and CF.COMPACT on ddf's streaming cuckoo filter, which has one table and RedisBloom's shape not. */
    void notRedisBloomCuckoo(final Session session, final ByteBuf[] args)
    {
        throw new RespError("ERR " + KeyNames.display(session.key(args[1])) + " is ddf's streaming cuckoo filter " +
            "(one table, no sub-filters): CF.INFO describes it");
    }

    /**
     * @param capacity      items the filter must hold without dropping one.
     * @param bucketSize    slots per bucket.
     * @param maxIterations displacements before a victim is dropped.
     * @return the cuckoo filter's builder.
     */
    static FilterBuilder builder(final long capacity, final long bucketSize, final long maxIterations)
    {
        // The load a table reaches before its first drop: Fan et al. report 50 %, 84 %, 95 % and 98 % for b = 1, 2,
        // 4, 8 with 500 displacements; with RedisBloom's 20, b = 4 dropped 3 of 10,000 at 88 % (CuckooCommandsTest),
        // so the table is sized with a margin below those.
        final double load = bucketSize == 1 ? 0.4 : bucketSize == 2 ? 0.7 : bucketSize <= 4 ? 0.8 : 0.88;
        final long buckets = (long)Math.ceil(capacity / load / bucketSize);
        return Filters.builder(FilterKind.CUCKOO).memoryBits(buckets * bucketSize * FINGERPRINT_BITS)
            .buckets((int)bucketSize).fingerprintBits(FINGERPRINT_BITS).param("max-kicks", maxIterations);
    }

    private FilterBuilder defaultBuilder()
    {
        return builder(config.capacityOfMissingKeys(false), CuckooReserveRequest.DEFAULT_BUCKET_SIZE,
            CuckooReserveRequest.DEFAULT_MAX_ITERATIONS);
    }

    /**
     * CF.RESERVE on a missing key under {@code --past-capacity forget}: RedisBloom's bounds are the request's, ddf's
     * own are a bucket of at most {@value #MAX_BUCKET_SIZE} and no expansion.
     */
    void reserve(final Session session, final CuckooReserveRequest request)
    {
        if (request.bucketSize() > MAX_BUCKET_SIZE)
        {
            throw new RespError("ERR BUCKETSIZE must be in the range [1, " + MAX_BUCKET_SIZE + "] (ddf's largest " +
                "bucket; RedisBloom allows 255)");
        }
        if (request.expansion() != null && request.expansion() != 0)
        {
            throw new RespError(FixedSizeReserve.NO_EXPANSION);
        }
        final FilterBuilder builder = checked(builder(request.capacity(), request.bucketSize(),
            request.maxIterations()));
        session.await(store.create(request.key(), () -> builder, true),
            () -> session.replies().ready(Replies.OK));
    }

    private static FilterBuilder checked(final FilterBuilder builder)
    {
        try
        {
            builder.parameters();
            return builder;
        }
        catch (final IllegalArgumentException e)
        {
            throw new RespError("ERR " + OneLine.of(e));
        }
    }

    /**
     * @return a lease on the key's cuckoo filter, or null when the key is missing.
     * @throws RespError WRONGTYPE for a Bloom-family filter ({@link FilterTypes}).
     */
    private FilterStore.Lease cuckoo(final String key)
    {
        return FilterTypes.cuckoo(store, key);
    }

    /**
     * CF.INSERT (a copy of each item) and CF.INSERTNX (each unless present): a missing key is made with CF.INSERT's
     * CAPACITY, else the server's default capacity, and the command runs again once it exists; under NOCREATE it is
     * refused with RedisBloom's "not found".
     */
    void insert(final Session session, final ByteBuf[] args, final CuckooInsertRequest request, final boolean unique)
    {
        final String key = request.key();
        final boolean exists;
        try (FilterStore.Lease lease = cuckoo(key))
        {
            exists = lease != null;
        }
        if (!exists)
        {
            if (request.noCreate())
            {
                throw new RespError(Errors.NOT_FOUND);
            }
            final FilterBuilder builder = checked(builder(request.capacityOr(config.capacityOfMissingKeys(false)),
                CuckooReserveRequest.DEFAULT_BUCKET_SIZE, CuckooReserveRequest.DEFAULT_MAX_ITERATIONS));
            session.retryAfter(store.create(key, () -> builder, false), args);
            return;
        }
        if (unique)
        {
            stream(session, args, request.firstItem(), true);
            return;
        }
        addCopies(session, args, request.firstItem(), true, false);
    }

    /** CF.ADD and CF.INSERT: a copy of each item, present or not; 1 each. */
    private void addCopies(final Session session, final ByteBuf[] args, final int first, final boolean array,
        final boolean create)
    {
        final String key = Replies.key(args[1]);
        try (FilterStore.Lease lease = cuckoo(key))
        {
            if (lease == null)
            {
                if (!create)
                {
                    throw new RespError(Errors.NOT_FOUND);
                }
                session.retryAfter(store.create(key, this::defaultBuilder, false), args);
                return;
            }
            final DuplicateFilter filter = lease.filter();
            drain.accept(filter);
            final List<RedisMessage> ones = new ArrayList<>();
            for (int i = first; i < args.length; i++)
            {
                filter.addHash(hash(filter, args[i]));
                ones.add(Replies.bool(true));
            }
            session.replies().wrote(filter);
            session.replies().ready(array ? new ArrayRedisMessage(ones) : Replies.bool(true));
        }
    }

    /** CF.ADDNX and CF.INSERTNX: the streaming filter's own insertion, through the pipeline: 1 added, 0 present. */
    private void stream(final Session session, final ByteBuf[] args, final int first, final boolean array)
    {
        final String key = session.key(args[1]);
        try (FilterStore.Lease lease = cuckoo(key))
        {
            if (lease == null)
            {
                session.retryAfter(store.create(key, this::defaultBuilder, false), args);
                return;
            }
            session.judge(lease.filter(), Operation.STREAM, args, first, array);
        }
    }

    /** CF.EXISTS and CF.MEXISTS: a missing key holds nothing. */
    private void contains(final Session session, final ByteBuf[] args, final boolean array)
    {
        try (FilterStore.Lease lease = cuckoo(session.key(args[1])))
        {
            if (lease == null)
            {
                session.replies().ready(BloomCommands.absent(args, 2, array));
                return;
            }
            session.judge(lease.filter(), Operation.CONTAINS, args, 2, array);
        }
    }

    void delete(final Session session, final ByteBuf[] args)
    {
        try (FilterStore.Lease lease = cuckoo(Replies.key(args[1])))
        {
            if (lease == null)
            {
                throw new RespError(Errors.DEL_NOT_FOUND);
            }
            final DuplicateFilter filter = lease.filter();
            drain.accept(filter);
            final boolean deleted = filter.deleteHash(hash(filter, args[2]));
            session.replies().wrote(filter);
            session.replies().ready(Replies.bool(deleted));
        }
    }

    void count(final Session session, final ByteBuf[] args)
    {
        try (FilterStore.Lease lease = cuckoo(Replies.key(args[1])))
        {
            if (lease == null)
            {
                session.replies().ready(Replies.ZERO);
                return;
            }
            final DuplicateFilter filter = lease.filter();
            drain.accept(filter);
            session.replies().ready(Replies.integer(filter.countHash(hash(filter, args[2]))));
        }
    }

    /** CF.INFO: RedisBloom's fields, in its order. */
    void info(final Session session, final ByteBuf[] args)
    {
        try (FilterStore.Lease lease = cuckoo(Replies.key(args[1])))
        {
            if (lease == null)
            {
                throw new RespError(Errors.NOT_FOUND);
            }
            final DuplicateFilter filter = lease.filter();
            drain.accept(filter);
            final FilterParameters p = filter.parameters();
            final long bucketSize = p.get("buckets");
            final List<Map.Entry<String, Object>> info = new ArrayList<>();
            field(info, "Size", p.tableBytes());
            field(info, "Number of buckets", p.get("memory-bits") / (bucketSize * p.get("fingerprint-bits")));
            field(info, "Number of filters", 1);
            field(info, "Number of items inserted", filter.elements() - filter.duplicates() - filter.deletions());
            field(info, "Number of items deleted", filter.deletions());
            field(info, "Bucket size", bucketSize);
            field(info, "Expansion rate", 0);
            field(info, "Max iterations", p.get("max-kicks"));
            session.replies().ready(Replies.fields(info)); // a map in RESP3, pairs in RESP2
        }
    }

    private static void field(final List<Map.Entry<String, Object>> info, final String name, final long value)
    {
        info.add(Map.entry(name, value));
    }

    private static long hash(final DuplicateFilter filter, final ByteBuf item)
    {
        final byte[] bytes = ByteBufUtil.getBytes(item);
        return filter.hash(bytes, 0, bytes.length);
    }
}
