package io.ddf.ingest.redisbloom;

import io.ddf.engine.scaling.AddResult;
import io.ddf.engine.scaling.BloomChain;
import io.ddf.engine.scaling.DumpChunk;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.ScalingRegistry;
import io.ddf.ingest.store.ScalingRegistry.Layout;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * RedisBloom 2.4.23's BF.* commands over the registry's scaling chains: bounds, error texts and replies as
 * RedisBloom's {@code rebloom.c} gives them, each reply a RESP value ({@link Replies}) written in the client's
 * protocol, each refusal a {@link RespError}. A filter is made in a {@link Layout}: ddf's own chain of blocked layers
 * ({@link Layout#DDF}, the default: RedisBloom's capacities, error rates and replies, its own bytes) or RedisBloom's
 * layout ({@link Layout#REDISBLOOM}, {@code serve --scaling-layout redisbloom} or {@code KIND redisbloom}: it answers
 * bit for bit as RedisBloom would, false positives included, and dumps chunks RedisBloom loads); a key loaded from a
 * RedisBloom dump is RedisBloom's layout either way.
 *
 * <p>BF.RESERVE and BF.INSERT come parsed ({@link ReserveRequest}, {@link InsertRequest}), the other commands as
 * byte arrays, {@code args[0]} the command's name (the command table has checked their arity). A command that needs
 * its filter made first gets a {@link Creation} from {@link #reserve}, {@link #toAdd}, {@link #toInsert} or
 * {@link #toLoad}, and the caller makes it where that blocks nobody.
 */
public final class BloomSemantics
{
    private final ScalingRegistry registry;
    private final long defaultCapacity;
    private final double defaultError;
    private final Layout layout;

    /**
     * @param registry        the scaling filters.
     * @param defaultCapacity the capacity of a filter BF.ADD, BF.MADD and BF.INSERT make (RedisBloom's is 100).
     * @param defaultError    its error rate (RedisBloom's is 0.01).
     * @param layout          how filters are made here (a {@code KIND} given to BF.RESERVE chooses per key).
     */
    public BloomSemantics(final ScalingRegistry registry, final long defaultCapacity, final double defaultError,
        final Layout layout)
    {
        this.registry = registry;
        this.defaultCapacity = defaultCapacity;
        this.defaultError = defaultError;
        this.layout = layout;
    }

    private static String key(final byte[][] args)
    {
        return new String(args[1], java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** @return what makes a chain of these parameters in {@code chosen} layout, on the daemon's creation thread. */
    private static ScalingRegistry.Maker maker(final Layout chosen, final long capacity, final double error,
        final boolean nonScaling, final int expansion)
    {
        if (chosen == Layout.REDISBLOOM)
        {
            return file -> BloomChain.redisBloom(file, capacity, error, nonScaling, expansion);
        }
        final long seed = ThreadLocalRandom.current().nextLong();
        return file -> BloomChain.create(file, capacity, error, nonScaling, expansion, seed);
    }

    /**
     * BF.RESERVE.
     *
     * @param request the command.
     * @param chosen  the layout ({@link ReserveRequest#scalingLayout}).
     * @return the chain to make; OK once made.
     * @throws RespError {@code ERR item exists}, or WRONGTYPE for a cuckoo filter.
     */
    public Creation reserve(final ReserveRequest request, final Layout chosen)
    {
        registry.use(request.key(), filter ->
        {
            if (filter != null)
            {
                throw new RespError(filter instanceof BloomChain ? Errors.ITEM_EXISTS : RespError.WRONGTYPE);
            }
            return null;
        });
        return Creation.of(request.key(), maker(chosen, request.capacity(), request.errorRate(),
            request.nonScaling(), request.chainExpansion()), true);
    }

    /**
     * @param key a key BF.ADD or BF.MADD adds to.
     * @return the chain to make first (of the daemon's defaults), or null when the key holds one.
     * @throws RespError WRONGTYPE for a cuckoo filter.
     */
    public Creation toAdd(final String key)
    {
        return missing(key, true, defaultCapacity, defaultError, ReserveRequest.DEFAULT_EXPANSION, false);
    }

    /**
     * @param request a BF.INSERT.
     * @return the chain to make first (its CAPACITY, ERROR, EXPANSION, NONSCALING), or null when the key holds one.
     * @throws RespError {@code ERR not found} for a missing key under NOCREATE, WRONGTYPE for a cuckoo filter.
     */
    public Creation toInsert(final InsertRequest request)
    {
        return missing(request.key(), !request.noCreate(), request.capacityOr(defaultCapacity),
            request.errorRateOr(defaultError), request.chainExpansion(), request.nonScaling());
    }

    private Creation missing(final String key, final boolean create, final long capacity, final double error,
        final int expansion, final boolean nonScaling)
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
            if (!(filter instanceof BloomChain))
            {
                throw new RespError(RespError.WRONGTYPE);
            }
            return true;
        });
        // made, then the command runs again and finds it (or the filter another client made meanwhile)
        return found ? null : Creation.of(key, maker(layout, capacity, error, nonScaling, expansion), false);
    }

    /**
     * BF.INSERT's items, on the key's chain ({@link #toInsert} first): 1 for each not seen before, RedisBloom's
     * error in place of the first a full NONSCALING chain refuses, and nothing after it.
     *
     * @param request the command.
     * @param args    its arguments.
     * @return an array of the verdicts.
     * @throws RespError {@code ERR not found} when the chain is gone, WRONGTYPE for a cuckoo filter.
     */
    public RedisMessage insert(final InsertRequest request, final byte[][] args)
    {
        return withChain(request.key(), chain ->
        {
            final List<RedisMessage> replies = new ArrayList<>(args.length - request.firstItem());
            final UnsafeBuffer item = new UnsafeBuffer(new byte[0]);
            for (int i = request.firstItem(); i < args.length; i++)
            {
                item.wrap(args[i]);
                final AddResult result = chain.add(item, 0, args[i].length);
                if (result == AddResult.FULL)
                {
                    replies.add(new ErrorRedisMessage(Errors.FULL));
                    break;
                }
                replies.add(Replies.bool(result != AddResult.EXISTS));
            }
            return Replies.array(replies);
        });
    }

    private <T> T withChain(final String key, final Function<BloomChain, T> use)
    {
        return registry.use(key, filter ->
        {
            if (filter == null)
            {
                throw new RespError(Errors.NOT_FOUND);
            }
            if (!(filter instanceof BloomChain chain))
            {
                throw new RespError(RespError.WRONGTYPE);
            }
            return use.apply(chain);
        });
    }

    /**
     * @param args BF.INFO key [CAPACITY | SIZE | FILTERS | ITEMS | EXPANSION].
     * @return RedisBloom's fields (a map in RESP3), or the one asked for in an array of one.
     */
    public RedisMessage info(final byte[][] args)
    {
        return withChain(key(args), chain ->
        {
            final RedisMessage expansion = chain.nonScaling() ? Replies.nil() : Replies.integer(chain.expansion());
            if (args.length == 3)
            {
                final String field = new String(args[2], java.nio.charset.StandardCharsets.ISO_8859_1)
                    .toLowerCase(Locale.ROOT);
                final RedisMessage value = switch (field)
                {
                    case "capacity" -> Replies.integer(chain.capacity());
                    case "size" -> Replies.integer(chain.infoSize());
                    case "filters" -> Replies.integer(chain.layerCount());
                    case "items" -> Replies.integer(chain.size());
                    case "expansion" -> expansion;
                    default -> null;
                };
                if (value == null)
                {
                    throw new RespError("Invalid information value");
                }
                return Replies.array(List.of(value));
            }
            return Replies.map(List.of(Replies.simple("Capacity"), Replies.integer(chain.capacity()),
                Replies.simple("Size"), Replies.integer(chain.infoSize()), Replies.simple("Number of filters"),
                Replies.integer(chain.layerCount()), Replies.simple("Number of items inserted"),
                Replies.integer(chain.size()), Replies.simple("Expansion rate"), expansion));
        });
    }

    /**
     * @param args BF.INFO key DDF: ddf's own figures of a scaling chain, beside RedisBloom's.
     * @return its file's bytes, layout, layers and the RedisBloom figures.
     */
    public RedisMessage ddfInfo(final byte[][] args)
    {
        return withChain(key(args), chain -> Replies.map(List.of(Replies.simple("layout"),
            Replies.bulk(chain.redisBloomLayout() ? "redisbloom" : "ddf"), Replies.simple("file-bytes"),
            Replies.integer(chain.fileBytes()), Replies.simple("layers"), Replies.integer(chain.layerCount()),
            Replies.simple("items"), Replies.integer(chain.size()), Replies.simple("capacity"),
            Replies.integer(chain.capacity()))));
    }

    /**
     * @param args BF.DEBUG key.
     * @return the chain's size, then one line per layer, as RedisBloom writes them.
     */
    public RedisMessage debug(final byte[][] args)
    {
        return withChain(key(args), chain ->
        {
            final List<RedisMessage> lines = new ArrayList<>();
            for (final String line : chain.debug())
            {
                lines.add(Replies.bulk(line));
            }
            return Replies.array(lines);
        });
    }

    /**
     * @param args BF.CARD key.
     * @return items added (0 for a missing key).
     */
    public RedisMessage card(final byte[][] args)
    {
        return registry.use(key(args), filter ->
        {
            if (filter == null)
            {
                return Replies.integer(0);
            }
            if (!(filter instanceof BloomChain chain))
            {
                throw new RespError(RespError.WRONGTYPE);
            }
            return Replies.integer(chain.size());
        });
    }

    /**
     * @param args BF.SCANDUMP key iterator.
     * @return the iterator to ask for next and the chunk: the header for 0, then the layers' bytes, then 0 and "".
     */
    public RedisMessage scandump(final byte[][] args)
    {
        return withChain(key(args), chain ->
        {
            final Long iter = Arguments.integer(args[2]);
            if (iter == null)
            {
                throw new RespError("Second argument must be numeric");
            }
            if (iter == 0)
            {
                return Replies.array(List.of(Replies.integer(1), Replies.bulk(chain.dumpHeader())));
            }
            final DumpChunk chunk = chain.dump(iter);
            return chunk == null ? Replies.array(List.of(Replies.integer(0), Replies.bulk(new byte[0]))) :
                Replies.array(List.of(Replies.integer(chunk.next()), Replies.bulk(chunk.data())));
        });
    }

    /**
     * BF.LOADCHUNK's header chunk on a missing key makes the chain; every other chunk loads into it
     * ({@link #loadchunk}).
     *
     * @param args BF.LOADCHUNK key iterator data.
     * @return the chain to make from the header chunk, or null when the command loads a chunk instead.
     * @throws RespError when the iterator is no number (RedisBloom's first check).
     */
    public Creation toLoad(final byte[][] args)
    {
        final long iter = iterator(args);
        final String key = key(args);
        final byte[] data = args[3];
        return iter == 1 && !registry.has(key) ?
            Creation.of(key, file -> BloomChain.fromDumpHeader(file, data), true) : null;
    }

    private static long iterator(final byte[][] args)
    {
        final Long iter = Arguments.integer(args[2]);
        if (iter == null)
        {
            throw new RespError("ERR Second argument must be numeric");
        }
        return iter;
    }

    /**
     * @param args BF.LOADCHUNK key iterator data: a RedisBloom chunk (or a ddf chain's), as BF.SCANDUMP gave it.
     * @return OK, or RedisBloom's error; a refused chunk changes nothing.
     */
    public RedisMessage loadchunk(final byte[][] args)
    {
        final long iter = iterator(args);
        final byte[] data = args[3];
        return withChain(key(args), chain ->
        {
            Outcomes.load(() -> chain.load(iter, new UnsafeBuffer(data), 0, data.length));
            return Replies.OK;
        });
    }
}
