package io.ddf.ingest.redisbloom;

import io.ddf.engine.redisbloom.CuckooHeader;
import io.ddf.engine.redisbloom.RedisBloomFormatException;
import io.ddf.engine.scaling.DumpChunk;
import io.ddf.engine.scaling.RedisCuckoo;
import io.ddf.engine.scaling.ScalingFilter;
import io.ddf.ingest.store.ScalingRegistry;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static io.ddf.ingest.redisbloom.BloomSemantics.NOT_FOUND;
import static io.ddf.ingest.redisbloom.BloomSemantics.WRONGTYPE;
import static io.ddf.ingest.redisbloom.BloomSemantics.arity;

/**
 * RedisBloom 2.4.23's CF.* commands over the registry's cuckoo filters ({@link RedisCuckoo}: RedisBloom's layout,
 * bit for bit): arguments, bounds, error texts and replies as RedisBloom gives them. A missing key is made with
 * RedisBloom's defaults: 1024 items, buckets of 2, 20 kicks, expansion 1.
 */
public final class CuckooSemantics
{
    /** RedisBloom's defaults for a filter made on first use. */
    static final long DEFAULT_CAPACITY = 1024;
    static final int DEFAULT_BUCKET_SIZE = 2;
    static final int DEFAULT_MAX_ITERATIONS = 20;
    static final int DEFAULT_EXPANSION = 1;

    private final ScalingRegistry registry;

    /** @param registry the scaling filters. */
    public CuckooSemantics(final ScalingRegistry registry)
    {
        this.registry = registry;
    }

    private static String key(final byte[][] args)
    {
        return new String(args[1], java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private static long hash(final byte[] item)
    {
        return RedisCuckoo.hash(item);
    }

    /** One of CF.RESERVE's bounded options: its value, or the reply refusing it. */
    private record Bounded(long value, Reply refusal)
    {
    }

    private static Bounded option(final byte[][] args, final String name, final long fallback, final long min,
        final long max)
    {
        final int at = Arguments.indexOf(args, name);
        if (at < 0)
        {
            return new Bounded(fallback, null);
        }
        final Long value = at + 1 < args.length ? Arguments.integer(args[at + 1]) : null;
        if (value == null)
        {
            return new Bounded(0, Reply.error("Couldn't parse " + name));
        }
        if (value < min || value > max)
        {
            return new Bounded(0, Reply.error(name + ": value must be an integer between " + min + " and " + max +
                ", inclusive."));
        }
        return new Bounded(value, null);
    }

    /**
     * @param args CF.RESERVE key capacity [BUCKETSIZE b] [MAXITERATIONS m] [EXPANSION e].
     * @return the reply.
     */
    public Reply reserve(final byte[][] args)
    {
        if (args.length < 3 || args.length % 2 == 0)
        {
            return arity(args);
        }
        final Long capacity = Arguments.integer(args[2]);
        if (capacity == null)
        {
            return Reply.error(Errors.CAPACITY_NOT_A_NUMBER);
        }
        final Bounded iterations = option(args, "MAXITERATIONS", DEFAULT_MAX_ITERATIONS, 1, 65535);
        if (iterations.refusal() != null)
        {
            return iterations.refusal();
        }
        final Bounded bucketSize = option(args, "BUCKETSIZE", DEFAULT_BUCKET_SIZE, 1, 255);
        if (bucketSize.refusal() != null)
        {
            return bucketSize.refusal();
        }
        final Bounded expansion = option(args, "EXPANSION", DEFAULT_EXPANSION, 0, 32768);
        if (expansion.refusal() != null)
        {
            return expansion.refusal();
        }
        if (bucketSize.value() * 2 > capacity)
        {
            return Reply.error("Capacity must be at least (BucketSize * 2)");
        }
        final String key = key(args);
        final Reply taken = registry.use(key, filter -> filter == null ? null :
            Reply.error(filter instanceof RedisCuckoo ? "ERR item exists" : WRONGTYPE));
        if (taken != null)
        {
            return taken;
        }
        return make(key, capacity, (int)bucketSize.value(), (int)iterations.value(), (int)expansion.value(),
            Reply.OK);
    }

    /**
     * @param then the reply once made, or null to run the command again.
     * @return the creation of a cuckoo filter of these parameters.
     */
    private static Reply make(final String key, final long capacity, final int bucketSize, final int iterations,
        final int expansion, final Reply then)
    {
        return new Reply.Create(key, file -> RedisCuckoo.create(file, capacity, bucketSize, iterations, expansion),
            then != null, then, ex -> ex instanceof RedisBloomFormatException ? Reply.error(BloomSemantics.NO_MEMORY) :
                BloomSemantics.cannotCreate(ex));
    }

    /**
     * @param args CF.ADD or CF.ADDNX key item.
     * @return the reply.
     */
    public Reply add(final byte[][] args)
    {
        if (args.length != 3)
        {
            return arity(args);
        }
        return insert(key(args), args, 2, false, Arguments.is(args[0], "CF.ADDNX"), true, DEFAULT_CAPACITY);
    }

    /**
     * @param args CF.INSERT or CF.INSERTNX key [CAPACITY c] [NOCREATE] ITEMS item [item ...].
     * @return the reply.
     */
    public Reply insert(final byte[][] args)
    {
        if (args.length < 4)
        {
            return arity(args);
        }
        long capacity = DEFAULT_CAPACITY;
        boolean create = true;
        int items = -1;
        int at = 2;
        while (at < args.length && items < 0)
        {
            switch (Arguments.first(args[at]))
            {
                case 'c' ->
                {
                    if (++at == args.length)
                    {
                        return arity(args);
                    }
                    final Long given = Arguments.integer(args[at++]);
                    if (given == null)
                    {
                        return Reply.error(Errors.CAPACITY_NOT_A_NUMBER);
                    }
                    if (2L * DEFAULT_BUCKET_SIZE > given)
                    {
                        return Reply.error("Capacity must be at least (BucketSize * 2)");
                    }
                    capacity = given;
                }
                case 'i' -> items = ++at;
                case 'n' ->
                {
                    create = false;
                    at++;
                }
                default ->
                {
                    return Reply.error("Unknown argument received");
                }
            }
        }
        if (items < 0 || items == args.length)
        {
            return arity(args);
        }
        return insert(key(args), args, items, true, Arguments.is(args[0], "CF.INSERTNX"), create, capacity);
    }

    private Reply insert(final String key, final byte[][] args, final int first, final boolean multi,
        final boolean unique, final boolean create, final long capacity)
    {
        final Reply refusal = registry.use(key, filter -> filter == null ? (create ? null : Reply.error(NOT_FOUND)) :
            filter instanceof RedisCuckoo ? Reply.NIL : Reply.error(WRONGTYPE));
        if (refusal == null)
        {
            // made (or found made by another client meanwhile), then the command runs again
            return make(key, capacity, DEFAULT_BUCKET_SIZE, DEFAULT_MAX_ITERATIONS, DEFAULT_EXPANSION, null);
        }
        if (refusal != Reply.NIL)
        {
            return refusal;
        }
        return registry.use(key, filter ->
        {
            if (!(filter instanceof RedisCuckoo cuckoo))
            {
                return filter == null ? Reply.error(NOT_FOUND) : Reply.error(WRONGTYPE);
            }
            if (cuckoo.filters() >= CuckooHeader.MAX_FILTERS)
            {
                return Reply.error("Maximum expansions reached");
            }
            final List<Reply> replies = new ArrayList<>(args.length - first);
            for (int i = first; i < args.length; i++)
            {
                switch (cuckoo.insert(hash(args[i]), unique))
                {
                    case INSERTED -> replies.add(Reply.TRUE);
                    case EXISTS -> replies.add(Reply.FALSE);
                    default ->
                    {
                        if (!multi)
                        {
                            return Reply.error("Filter is full");
                        }
                        replies.add(Reply.integer(-1));
                    }
                }
            }
            return multi ? Reply.Array.of(replies) : replies.get(0);
        });
    }

    /**
     * @param args CF.EXISTS, CF.MEXISTS or CF.COUNT key item [item ...].
     * @return 1/0 per item (the count for CF.COUNT); 0 for a missing key or another type's, as RedisBloom.
     */
    public Reply check(final byte[][] args)
    {
        final boolean multi = Arguments.is(args[0], "CF.MEXISTS");
        final boolean count = Arguments.is(args[0], "CF.COUNT");
        if (multi ? args.length < 3 : args.length != 3)
        {
            return arity(args);
        }
        return registry.use(key(args), filter ->
        {
            final List<Reply> replies = new ArrayList<>(args.length - 2);
            for (int i = 2; i < args.length; i++)
            {
                final RedisCuckoo cuckoo = filter instanceof RedisCuckoo c ? c : null;
                if (count)
                {
                    replies.add(Reply.integer(cuckoo == null ? 0 : cuckoo.count(hash(args[i]))));
                }
                else
                {
                    replies.add(Reply.bool(cuckoo != null && cuckoo.contains(hash(args[i]))));
                }
            }
            return multi ? Reply.Array.of(replies) : replies.get(0);
        });
    }

    /**
     * @param args CF.DEL key item.
     * @return 1 when a copy was deleted; {@code Not found} for a missing key or another type's.
     */
    public Reply delete(final byte[][] args)
    {
        if (args.length != 3)
        {
            return arity(args);
        }
        return registry.use(key(args), filter -> filter instanceof RedisCuckoo cuckoo ?
            Reply.bool(cuckoo.delete(hash(args[2]))) : Reply.error(Errors.DEL_NOT_FOUND));
    }

    /**
     * @param args CF.COMPACT key.
     * @return OK.
     */
    public Reply compact(final byte[][] args)
    {
        if (args.length != 2)
        {
            return arity(args);
        }
        return registry.use(key(args), filter ->
        {
            if (!(filter instanceof RedisCuckoo cuckoo))
            {
                return Reply.error("Cuckoo filter was not found");
            }
            cuckoo.compact(true);
            return Reply.OK;
        });
    }

    private Reply withCuckoo(final byte[][] args, final Function<RedisCuckoo, Reply> use)
    {
        return registry.use(key(args), filter -> filter == null ? Reply.error(NOT_FOUND) :
            filter instanceof RedisCuckoo cuckoo ? use.apply(cuckoo) : Reply.error(WRONGTYPE));
    }

    /**
     * @param args CF.INFO key.
     * @return RedisBloom's eight fields.
     */
    public Reply info(final byte[][] args)
    {
        if (args.length != 2)
        {
            return arity(args);
        }
        return withCuckoo(args, cuckoo ->
        {
            final CuckooHeader h = cuckoo.header();
            return new Reply.Array(List.of(new Reply.Simple("Size"), Reply.integer(cuckoo.infoSize()),
                new Reply.Simple("Number of buckets"), Reply.integer(h.buckets()),
                new Reply.Simple("Number of filters"), Reply.integer(h.filters()),
                new Reply.Simple("Number of items inserted"), Reply.integer(h.items()),
                new Reply.Simple("Number of items deleted"), Reply.integer(h.deletes()),
                new Reply.Simple("Bucket size"), Reply.integer(h.bucketSize()),
                new Reply.Simple("Expansion rate"), Reply.integer(h.expansion()),
                new Reply.Simple("Max iterations"), Reply.integer(h.maxIterations())), true);
        });
    }

    /**
     * @param args CF.DEBUG key.
     * @return RedisBloom's debug line.
     */
    public Reply debug(final byte[][] args)
    {
        if (args.length != 2)
        {
            return arity(args);
        }
        return withCuckoo(args, cuckoo -> Reply.Bulk.of(cuckoo.debug()));
    }

    /**
     * @param args CF.SCANDUMP key position.
     * @return the position to ask for next and the chunk: the header for 0, then the sub-filters, then 0 and nil
     *         (0 and nil at once for a filter without items).
     */
    public Reply scandump(final byte[][] args)
    {
        if (args.length != 3)
        {
            return arity(args);
        }
        final Long pos = Arguments.integer(args[2]);
        if (pos == null || pos < 0)
        {
            return Reply.error("Invalid position");
        }
        return withCuckoo(args, cuckoo ->
        {
            final Reply end = Reply.Array.of(List.of(Reply.integer(0), Reply.NIL));
            if (cuckoo.header().items() == 0)
            {
                return end;
            }
            if (pos == 0)
            {
                return Reply.Array.of(List.of(Reply.integer(1), new Reply.Bulk(cuckoo.header().encode())));
            }
            final DumpChunk chunk = cuckoo.dump(pos);
            return chunk == null ? end :
                Reply.Array.of(List.of(Reply.integer(chunk.next()), new Reply.Bulk(chunk.data())));
        });
    }

    /**
     * @param args CF.LOADCHUNK key position data, as CF.SCANDUMP gave them.
     * @return OK, or RedisBloom's error; a refused chunk changes nothing.
     */
    public Reply loadchunk(final byte[][] args)
    {
        if (args.length != 4)
        {
            return arity(args);
        }
        final Long pos = Arguments.integer(args[2]);
        if (pos == null || pos == 0)
        {
            return Reply.error("Invalid position");
        }
        final String key = key(args);
        final byte[] data = args[3];
        final Reply loaded = registry.use(key, filter ->
        {
            if (pos == 1)
            {
                if (filter != null)
                {
                    return Reply.error(filter instanceof RedisCuckoo ? "ERR item exists" : WRONGTYPE);
                }
                if (data.length != CuckooHeader.BYTES)
                {
                    return Reply.error("Invalid header");
                }
                // RedisBloom checks the header's counts and the filter's integrity before it makes anything
                return valid(data) ? null : Reply.error("Couldn't create filter!");
            }
            if (!(filter instanceof RedisCuckoo cuckoo))
            {
                return Reply.error(filter == null ? NOT_FOUND : WRONGTYPE);
            }
            return Outcomes.loaded(() -> cuckoo.load(pos, new UnsafeBuffer(data), 0, data.length));
        });
        return loaded != null ? loaded : new Reply.Create(key,
            file -> RedisCuckoo.fromHeader(file, CuckooHeader.decode(data)), true, Reply.OK,
            BloomSemantics::cannotCreate);
    }

    /** @return whether a header chunk of the right length describes a filter RedisBloom would make. */
    private static boolean valid(final byte[] header)
    {
        try
        {
            CuckooHeader.decode(header);
            return true;
        }
        catch (final RedisBloomFormatException e)
        {
            return false;
        }
    }

    /**
     * @param filter a scaling filter.
     * @return whether it is a cuckoo filter (TYPE MBbloomCF).
     */
    public static boolean isCuckoo(final ScalingFilter filter)
    {
        return filter instanceof RedisCuckoo;
    }
}
