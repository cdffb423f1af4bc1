package io.ddf.ingest.redisbloom;

import io.ddf.engine.redisbloom.CuckooHeader;
import io.ddf.engine.redisbloom.RedisBloomFormatException;
import io.ddf.engine.scaling.DumpChunk;
import io.ddf.engine.scaling.RedisCuckoo;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.ScalingRegistry;
import io.netty.handler.codec.redis.RedisMessage;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * RedisBloom 2.4.23's CF.* commands over the registry's cuckoo filters ({@link RedisCuckoo}: RedisBloom's layout,
 * bit for bit): bounds, error texts and replies as RedisBloom gives them, each reply a RESP value, each refusal a
 * {@link RespError}. A missing key is made with RedisBloom's defaults ({@link CuckooReserveRequest}: 1024 items,
 * buckets of 2, 20 kicks, expansion 1). CF.RESERVE and CF.INSERT come parsed, the other commands as byte arrays,
 * {@code args[0]} the command's name (the command table has checked their arity); a command that needs its filter
 * made first gets a {@link Creation} ({@link #reserve}, {@link #toInsert}, {@link #toLoad}).
 */
public final class CuckooSemantics
{
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

    /**
     * CF.RESERVE.
     *
     * @param request the command.
     * @return the filter to make; OK once made.
     * @throws RespError {@code ERR item exists}, or WRONGTYPE for a Bloom filter.
     */
    public Creation reserve(final CuckooReserveRequest request)
    {
        registry.use(request.key(), filter ->
        {
            if (filter != null)
            {
                throw new RespError(filter instanceof RedisCuckoo ? Errors.ITEM_EXISTS : RespError.WRONGTYPE);
            }
            return null;
        });
        return make(request.key(), request.capacity(), request.bucketSize(), request.maxIterations(),
            request.expansionOrDefault(), true);
    }

    /** @return the creation of a cuckoo filter of these parameters. */
    private static Creation make(final String key, final long capacity, final int bucketSize, final int iterations,
        final int expansion, final boolean exclusive)
    {
        return new Creation(key, file -> RedisCuckoo.create(file, capacity, bucketSize, iterations, expansion),
            exclusive, ex -> ex instanceof RedisBloomFormatException ? Errors.NO_MEMORY : Creation.cannotCreate(ex));
    }

    /**
     * @param key      a key CF.ADD, CF.ADDNX, CF.INSERT or CF.INSERTNX adds to.
     * @param create   whether a missing key is made (not under NOCREATE).
     * @param capacity the capacity of a filter made for it.
     * @return the filter to make first (RedisBloom's buckets, kicks and expansion), or null when the key holds one.
     * @throws RespError {@code ERR not found} for a missing key under NOCREATE, WRONGTYPE for a Bloom filter.
     */
    public Creation toInsert(final String key, final boolean create, final long capacity)
    {
        final boolean found = registry.use(key, filter ->
        {
            if (filter == null)
            {
                if (!create)
                {
                    throw new RespError(Errors.NOT_FOUND);
                }
                return false;
            }
            if (!(filter instanceof RedisCuckoo))
            {
                throw new RespError(RespError.WRONGTYPE);
            }
            return true;
        });
        // made (or found made by another client meanwhile), then the command runs again
        return found ? null : make(key, capacity, CuckooReserveRequest.DEFAULT_BUCKET_SIZE,
            CuckooReserveRequest.DEFAULT_MAX_ITERATIONS, CuckooReserveRequest.DEFAULT_EXPANSION, false);
    }

    /**
     * CF.ADD or CF.ADDNX on the key's filter ({@link #toInsert} first).
     *
     * @param args CF.ADD or CF.ADDNX key item.
     * @return 1 added, 0 present (CF.ADDNX); RedisBloom's error when the filter is full.
     */
    public RedisMessage add(final byte[][] args)
    {
        return insert(key(args), args, 2, false, Arguments.is(args[0], "CF.ADDNX"));
    }

    /**
     * CF.INSERT or CF.INSERTNX's items on the key's filter ({@link #toInsert} first).
     *
     * @param request the command.
     * @param args    its arguments.
     * @param unique  whether an item present is left (CF.INSERTNX).
     * @return an array: 1 added, 0 present, -1 when the filter is full.
     */
    public RedisMessage insert(final CuckooInsertRequest request, final byte[][] args, final boolean unique)
    {
        return insert(request.key(), args, request.firstItem(), true, unique);
    }

    private RedisMessage insert(final String key, final byte[][] args, final int first, final boolean multi,
        final boolean unique)
    {
        return withCuckoo(key, cuckoo ->
        {
            if (cuckoo.filters() >= CuckooHeader.MAX_FILTERS)
            {
                throw new RespError("Maximum expansions reached");
            }
            final List<RedisMessage> replies = new ArrayList<>(args.length - first);
            for (int i = first; i < args.length; i++)
            {
                switch (cuckoo.insert(hash(args[i]), unique))
                {
                    case INSERTED -> replies.add(Replies.bool(true));
                    case EXISTS -> replies.add(Replies.bool(false));
                    default ->
                    {
                        if (!multi)
                        {
                            throw new RespError("Filter is full");
                        }
                        replies.add(Replies.integer(-1));
                    }
                }
            }
            return multi ? Replies.array(replies) : replies.get(0);
        });
    }

    /**
     * @param args CF.EXISTS, CF.MEXISTS or CF.COUNT key item [item ...].
     * @return 1/0 per item (the count for CF.COUNT); 0 for a missing key or another type's, as RedisBloom.
     */
    public RedisMessage check(final byte[][] args)
    {
        final boolean multi = Arguments.is(args[0], "CF.MEXISTS");
        final boolean count = Arguments.is(args[0], "CF.COUNT");
        return registry.use(key(args), filter ->
        {
            final List<RedisMessage> replies = new ArrayList<>(args.length - 2);
            final RedisCuckoo cuckoo = filter instanceof RedisCuckoo c ? c : null;
            for (int i = 2; i < args.length; i++)
            {
                if (count)
                {
                    replies.add(Replies.integer(cuckoo == null ? 0 : cuckoo.count(hash(args[i]))));
                }
                else
                {
                    replies.add(Replies.bool(cuckoo != null && cuckoo.contains(hash(args[i]))));
                }
            }
            return multi ? Replies.array(replies) : replies.get(0);
        });
    }

    /**
     * @param args CF.DEL key item.
     * @return 1 when a copy was deleted; {@code Not found} for a missing key or another type's.
     */
    public RedisMessage delete(final byte[][] args)
    {
        return registry.use(key(args), filter ->
        {
            if (!(filter instanceof RedisCuckoo cuckoo))
            {
                throw new RespError(Errors.DEL_NOT_FOUND);
            }
            return Replies.bool(cuckoo.delete(hash(args[2])));
        });
    }

    /**
     * @param args CF.COMPACT key.
     * @return OK.
     */
    public RedisMessage compact(final byte[][] args)
    {
        return registry.use(key(args), filter ->
        {
            if (!(filter instanceof RedisCuckoo cuckoo))
            {
                throw new RespError("Cuckoo filter was not found");
            }
            cuckoo.compact(true);
            return Replies.OK;
        });
    }

    private <T> T withCuckoo(final String key, final Function<RedisCuckoo, T> use)
    {
        return registry.use(key, filter ->
        {
            if (filter == null)
            {
                throw new RespError(Errors.NOT_FOUND);
            }
            if (!(filter instanceof RedisCuckoo cuckoo))
            {
                throw new RespError(RespError.WRONGTYPE);
            }
            return use.apply(cuckoo);
        });
    }

    /**
     * @param args CF.INFO key.
     * @return RedisBloom's eight fields (a map in RESP3).
     */
    public RedisMessage info(final byte[][] args)
    {
        return withCuckoo(key(args), cuckoo ->
        {
            final CuckooHeader h = cuckoo.header();
            return Replies.map(List.of(Replies.simple("Size"), Replies.integer(cuckoo.infoSize()),
                Replies.simple("Number of buckets"), Replies.integer(h.buckets()),
                Replies.simple("Number of filters"), Replies.integer(h.filters()),
                Replies.simple("Number of items inserted"), Replies.integer(h.items()),
                Replies.simple("Number of items deleted"), Replies.integer(h.deletes()),
                Replies.simple("Bucket size"), Replies.integer(h.bucketSize()),
                Replies.simple("Expansion rate"), Replies.integer(h.expansion()),
                Replies.simple("Max iterations"), Replies.integer(h.maxIterations())));
        });
    }

    /**
     * @param args CF.DEBUG key.
     * @return RedisBloom's debug line.
     */
    public RedisMessage debug(final byte[][] args)
    {
        return withCuckoo(key(args), cuckoo -> Replies.bulk(cuckoo.debug()));
    }

    /**
     * @param args CF.SCANDUMP key position.
     * @return the position to ask for next and the chunk: the header for 0, then the sub-filters, then 0 and nil
     *         (0 and nil at once for a filter without items).
     */
    public RedisMessage scandump(final byte[][] args)
    {
        final Long pos = Arguments.integer(args[2]);
        if (pos == null || pos < 0)
        {
            throw new RespError("Invalid position");
        }
        return withCuckoo(key(args), cuckoo ->
        {
            if (cuckoo.header().items() == 0)
            {
                return end();
            }
            if (pos == 0)
            {
                return Replies.array(List.of(Replies.integer(1), Replies.bulk(cuckoo.header().encode())));
            }
            final DumpChunk chunk = cuckoo.dump(pos);
            return chunk == null ? end() :
                Replies.array(List.of(Replies.integer(chunk.next()), Replies.bulk(chunk.data())));
        });
    }

    private static RedisMessage end()
    {
        return Replies.array(List.of(Replies.integer(0), Replies.nil()));
    }

    private static long position(final byte[][] args)
    {
        final Long pos = Arguments.integer(args[2]);
        if (pos == null || pos == 0)
        {
            throw new RespError("Invalid position");
        }
        return pos;
    }

    /**
     * CF.LOADCHUNK's header chunk (position 1) makes the filter; every other chunk loads into it ({@link #loadchunk}).
     *
     * @param args CF.LOADCHUNK key position data.
     * @return the filter to make from the header chunk, or null when the command loads a chunk instead.
     * @throws RespError RedisBloom's refusal of the position, of an existing key, or of the header.
     */
    public Creation toLoad(final byte[][] args)
    {
        if (position(args) != 1)
        {
            return null;
        }
        final String key = key(args);
        final byte[] data = args[3];
        registry.use(key, filter ->
        {
            if (filter != null)
            {
                throw new RespError(filter instanceof RedisCuckoo ? Errors.ITEM_EXISTS : RespError.WRONGTYPE);
            }
            if (data.length != CuckooHeader.BYTES)
            {
                throw new RespError("Invalid header");
            }
            // RedisBloom checks the header's counts and the filter's integrity before it makes anything
            if (!valid(data))
            {
                throw new RespError("Couldn't create filter!");
            }
            return null;
        });
        return Creation.of(key, file -> RedisCuckoo.fromHeader(file, CuckooHeader.decode(data)), true);
    }

    /**
     * @param args CF.LOADCHUNK key position data, as CF.SCANDUMP gave them (a position after the header's).
     * @return OK, or RedisBloom's error; a refused chunk changes nothing.
     */
    public RedisMessage loadchunk(final byte[][] args)
    {
        final long pos = position(args);
        final byte[] data = args[3];
        return registry.use(key(args), filter ->
        {
            if (!(filter instanceof RedisCuckoo cuckoo))
            {
                throw new RespError(filter == null ? Errors.NOT_FOUND : RespError.WRONGTYPE);
            }
            Outcomes.load(() -> cuckoo.load(pos, new UnsafeBuffer(data), 0, data.length));
            return Replies.OK;
        });
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
}
