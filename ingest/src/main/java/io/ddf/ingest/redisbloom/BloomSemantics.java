package io.ddf.ingest.redisbloom;

import io.ddf.engine.scaling.AddResult;
import io.ddf.engine.scaling.BloomChain;
import io.ddf.engine.scaling.DumpChunk;
import io.ddf.engine.scaling.ScalingFilter;
import io.ddf.ingest.store.ScalingRegistry.Layout;
import io.ddf.ingest.store.ScalingRegistry;
import io.ddf.persistence.FilterFileException;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * RedisBloom 2.4.23's BF.* commands over the registry's scaling chains: their arguments, bounds, error texts and
 * replies as RedisBloom's {@code rebloom.c} gives them. A missing key is made as ddf's own chain of blocked layers
 * ({@link Layout#DDF}, the default, or {@code KIND scaling}: RedisBloom's capacities, error rates and replies, its
 * own bytes), or in RedisBloom's layout ({@link Layout#REDISBLOOM}, {@code serve --scaling-layout redisbloom} or
 * {@code KIND redisbloom}: it answers bit for bit as RedisBloom would, false positives included, and dumps chunks
 * RedisBloom loads); a key loaded from a RedisBloom dump is RedisBloom's layout either way. Arguments come as byte arrays, {@code args[0]} the command's name; a command that needs a
 * filter made answers {@link Reply.Create}, and the caller makes it where that blocks nobody.
 */
public final class BloomSemantics
{
    static final String WRONGTYPE = io.ddf.ingest.resp.RespError.WRONGTYPE;
    static final String NOT_FOUND = Errors.NOT_FOUND;
    static final String FULL = "ERR non scaling filter is full";
    static final String NO_MEMORY = "ERR Insufficient memory to create filter";
    /** RedisBloom's default expansion. */
    static final int DEFAULT_EXPANSION = 2;

    /** BF.RESERVE's {@code KIND} of ddf's chain. */
    public static final String KIND_DDF = "scaling";
    /** BF.RESERVE's {@code KIND} of RedisBloom's layout. */
    public static final String KIND_REDISBLOOM = "redisbloom";

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

    /**
     * @param args a BF.RESERVE.
     * @return the index of its {@code KIND} word naming a scaling layout, or -1.
     */
    static int kindAt(final byte[][] args)
    {
        final int at = Arguments.indexOf(args, "KIND");
        return at > 3 && at + 1 < args.length && layoutOf(args[at + 1]) != null ? at : -1;
    }

    /**
     * @param name a {@code KIND} value.
     * @return the scaling layout it names, or null.
     */
    static Layout layoutOf(final byte[] name)
    {
        return Arguments.is(name, KIND_DDF) ? Layout.DDF : Arguments.is(name, KIND_REDISBLOOM) ? Layout.REDISBLOOM :
            null;
    }

    /**
     * @param name a {@code KIND} value of BF.RESERVE.
     * @return whether it names a scaling layout ({@value #KIND_DDF}, {@value #KIND_REDISBLOOM}).
     */
    public static boolean isScalingKind(final String name)
    {
        return layoutOf(name.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)) != null;
    }

    static Reply arity(final byte[][] args)
    {
        return Reply.error("ERR wrong number of arguments for '" +
            new String(args[0], java.nio.charset.StandardCharsets.UTF_8).toLowerCase(Locale.ROOT) + "' command");
    }

    private static String key(final byte[][] args)
    {
        return new String(args[1], java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /**
     * @param ex why a filter could not be made.
     * @return the reply: RedisBloom's {@code Insufficient memory to create filter} for a full disk (RedisBloom's
     *         failed allocation), a refused dump header's own reply, {@code ERR item exists}, or RedisBloom's
     *         {@code ERR could not create filter} with the reason (a descriptor limit, an I/O error).
     */
    static Reply cannotCreate(final RuntimeException ex)
    {
        if (ex instanceof FilterFileException file && file.reason() == FilterFileException.Reason.NO_SPACE)
        {
            return Reply.error(NO_MEMORY);
        }
        if (ex instanceof io.ddf.engine.redisbloom.RedisBloomFormatException format)
        {
            return Reply.error(format.reply());
        }
        if (ex.getMessage() != null && ex.getMessage().startsWith("ERR"))
        {
            return Reply.error(ex.getMessage());
        }
        final String reason = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
        return Reply.error("ERR could not create filter: " + reason.replace('\r', ' ').replace('\n', ' '));
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
     * @param args BF.RESERVE key error_rate capacity [EXPANSION n] [NONSCALING] [KIND scaling|redisbloom] (the KIND,
     *             ddf's, chooses the layout; RedisBloom's own arguments are read as RedisBloom reads them).
     * @return the reply.
     */
    public Reply reserve(final byte[][] args)
    {
        final int kind = kindAt(args);
        if (kind >= 0)
        {
            final Layout chosen = layoutOf(args[kind + 1]);
            final byte[][] rest = new byte[args.length - 2][];
            System.arraycopy(args, 0, rest, 0, kind);
            System.arraycopy(args, kind + 2, rest, kind, args.length - kind - 2);
            return reserve(rest, chosen);
        }
        return reserve(args, layout);
    }

    private Reply reserve(final byte[][] args, final Layout chosen)
    {
        if (args.length < 4 || args.length > 7)
        {
            return arity(args);
        }
        final Double error = Arguments.real(args[2]);
        if (error == null)
        {
            return Reply.error(Errors.BAD_ERROR_RATE);
        }
        if (error >= 1 || error <= 0)
        {
            return Reply.error(Errors.ERROR_RATE_RANGE);
        }
        final Long capacity = Arguments.integer(args[3]);
        if (capacity == null)
        {
            return Reply.error(Errors.BAD_CAPACITY);
        }
        if (capacity <= 0)
        {
            return Reply.error(Errors.CAPACITY_NOT_POSITIVE);
        }
        final boolean nonScaling = Arguments.indexOf(args, "NONSCALING") >= 0;
        long expansion = DEFAULT_EXPANSION;
        final int at = Arguments.indexOf(args, "EXPANSION");
        if (at + 1 == args.length)
        {
            return Reply.error("ERR no expansion");
        }
        if (at >= 0)
        {
            if (nonScaling)
            {
                return Reply.error("Nonscaling filters cannot expand");
            }
            final Long given = Arguments.integer(args[at + 1]);
            if (given == null)
            {
                return Reply.error("ERR bad expansion");
            }
            expansion = given;
        }
        final String key = key(args);
        final Reply taken = registry.use(key, filter -> filter == null ? null :
            Reply.error(filter instanceof BloomChain ? "ERR item exists" : WRONGTYPE));
        if (taken != null)
        {
            return taken;
        }
        // as RedisBloom: the expansion's low 32 bits, unsigned
        return new Reply.Create(key, maker(chosen, capacity, error, nonScaling, (int)expansion), true, Reply.OK,
            BloomSemantics::cannotCreate);
    }

    /**
     * @param args BF.ADD key item, or BF.MADD key item [item ...].
     * @return the reply.
     */
    public Reply add(final byte[][] args)
    {
        final boolean multi = Arguments.is(args[0], "BF.MADD");
        if (multi ? args.length < 3 : args.length != 3)
        {
            return arity(args);
        }
        return insert(key(args), args, 2, multi, true, defaultCapacity, defaultError, DEFAULT_EXPANSION, false);
    }

    private Reply insert(final String key, final byte[][] args, final int first, final boolean multi,
        final boolean create, final long capacity, final double error, final long expansion, final boolean nonScaling)
    {
        final Reply refusal = registry.use(key, filter -> filter == null ? (create ? null : Reply.error(NOT_FOUND)) :
            filter instanceof BloomChain ? Reply.NIL : Reply.error(WRONGTYPE));
        if (refusal == null)
        {
            // made, then the command runs again and finds it (or the filter another client made meanwhile)
            return new Reply.Create(key, maker(layout, capacity, error, nonScaling, (int)expansion), false, null,
                BloomSemantics::cannotCreate);
        }
        if (refusal != Reply.NIL)
        {
            return refusal;
        }
        return registry.use(key, filter ->
        {
            if (!(filter instanceof BloomChain chain))
            {
                return filter == null ? Reply.error(NOT_FOUND) : Reply.error(WRONGTYPE);
            }
            final List<Reply> replies = new ArrayList<>(args.length - first);
            final UnsafeBuffer item = new UnsafeBuffer(new byte[0]);
            for (int i = first; i < args.length; i++)
            {
                item.wrap(args[i]);
                final AddResult result = chain.add(item, 0, args[i].length);
                if (result == AddResult.FULL)
                {
                    replies.add(Reply.error(FULL));
                    break;
                }
                replies.add(Reply.bool(result != AddResult.EXISTS));
            }
            return multi ? Reply.Array.of(replies) : replies.get(0);
        });
    }

    /**
     * @param args BF.INSERT key [CAPACITY c] [ERROR e] [EXPANSION n] [NOCREATE] [NONSCALING] ITEMS item [item ...].
     * @return the reply.
     */
    public Reply insert(final byte[][] args)
    {
        if (args.length < 4)
        {
            return arity(args);
        }
        long capacity = defaultCapacity;
        double error = defaultError;
        long expansion = DEFAULT_EXPANSION;
        boolean create = true;
        boolean nonScaling = false;
        int items = -1;
        int at = 2;
        while (at < args.length && items < 0)
        {
            final byte[] word = args[at];
            switch (Arguments.first(word))
            {
                case 'i' -> items = ++at;
                case 'e' ->
                {
                    if (++at == args.length)
                    {
                        return arity(args);
                    }
                    if (word.length > 1 && Character.toLowerCase((char)word[1]) == 'r')
                    {
                        final Double given = Arguments.real(args[at++]);
                        if (given == null)
                        {
                            return Reply.error("Bad error rate");
                        }
                        error = given;
                    }
                    else
                    {
                        final Long given = Arguments.integer(args[at++]);
                        if (given == null)
                        {
                            return Reply.error("Bad expansion");
                        }
                        expansion = given;
                    }
                }
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
                    capacity = given;
                }
                case 'n' ->
                {
                    if (word.length > 2 && Character.toLowerCase((char)word[2]) == 'c')
                    {
                        create = false;
                    }
                    else
                    {
                        nonScaling = true;
                    }
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
        if (error <= 0 || error >= 1 || capacity < 1 || expansion < 1)
        {
            return Reply.error("Bad argument received");
        }
        return insert(key(args), args, items, true, create, capacity, error, expansion, nonScaling);
    }

    /**
     * @param args BF.EXISTS key item, or BF.MEXISTS key item [item ...].
     * @return the reply: 0 for a missing key or another type's, as RedisBloom.
     */
    public Reply exists(final byte[][] args)
    {
        final boolean multi = Arguments.is(args[0], "BF.MEXISTS");
        if (multi ? args.length < 3 : args.length != 3)
        {
            return arity(args);
        }
        return registry.use(key(args), filter ->
        {
            final List<Reply> replies = new ArrayList<>(args.length - 2);
            final UnsafeBuffer item = new UnsafeBuffer(new byte[0]);
            for (int i = 2; i < args.length; i++)
            {
                boolean found = false;
                if (filter instanceof BloomChain chain)
                {
                    item.wrap(args[i]);
                    found = chain.contains(item, 0, args[i].length);
                }
                replies.add(Reply.bool(found));
            }
            return multi ? Reply.Array.of(replies) : replies.get(0);
        });
    }

    private Reply withChain(final byte[][] args, final java.util.function.Function<BloomChain, Reply> use)
    {
        return registry.use(key(args), filter -> filter == null ? Reply.error(NOT_FOUND) :
            filter instanceof BloomChain chain ? use.apply(chain) : Reply.error(WRONGTYPE));
    }

    /**
     * @param args BF.INFO key [CAPACITY | SIZE | FILTERS | ITEMS | EXPANSION].
     * @return RedisBloom's fields, or the one asked for in an array of one.
     */
    public Reply info(final byte[][] args)
    {
        if (args.length != 2 && args.length != 3)
        {
            return arity(args);
        }
        return withChain(args, chain ->
        {
            final Reply expansion = chain.nonScaling() ? Reply.NIL : Reply.integer(chain.expansion());
            if (args.length == 3)
            {
                final String field = new String(args[2], java.nio.charset.StandardCharsets.ISO_8859_1)
                    .toLowerCase(Locale.ROOT);
                final Reply value = switch (field)
                {
                    case "capacity" -> Reply.integer(chain.capacity());
                    case "size" -> Reply.integer(chain.infoSize());
                    case "filters" -> Reply.integer(chain.layerCount());
                    case "items" -> Reply.integer(chain.size());
                    case "expansion" -> expansion;
                    default -> null;
                };
                return value == null ? Reply.error("Invalid information value") : Reply.Array.of(List.of(value));
            }
            return new Reply.Array(List.of(new Reply.Simple("Capacity"), Reply.integer(chain.capacity()),
                new Reply.Simple("Size"), Reply.integer(chain.infoSize()), new Reply.Simple("Number of filters"),
                Reply.integer(chain.layerCount()), new Reply.Simple("Number of items inserted"),
                Reply.integer(chain.size()), new Reply.Simple("Expansion rate"), expansion), true);
        });
    }

    /**
     * @param args BF.INFO key DDF: ddf's own figures of a scaling chain, beside RedisBloom's.
     * @return its file's bytes, layout, layers and the RedisBloom figures.
     */
    public Reply ddfInfo(final byte[][] args)
    {
        return withChain(args, chain -> new Reply.Array(List.of(new Reply.Simple("layout"),
            Reply.Bulk.of(chain.redisBloomLayout() ? "redisbloom" : "ddf"), new Reply.Simple("file-bytes"),
            Reply.integer(chain.fileBytes()), new Reply.Simple("layers"), Reply.integer(chain.layerCount()),
            new Reply.Simple("items"), Reply.integer(chain.size()), new Reply.Simple("capacity"),
            Reply.integer(chain.capacity())), true));
    }

    /**
     * @param args BF.DEBUG key.
     * @return the chain's size, then one line per layer, as RedisBloom writes them.
     */
    public Reply debug(final byte[][] args)
    {
        if (args.length != 2)
        {
            return arity(args);
        }
        return withChain(args, chain ->
        {
            final List<Reply> lines = new ArrayList<>();
            for (final String line : chain.debug())
            {
                lines.add(Reply.Bulk.of(line));
            }
            return Reply.Array.of(lines);
        });
    }

    /**
     * @param args BF.CARD key.
     * @return items added (0 for a missing key).
     */
    public Reply card(final byte[][] args)
    {
        if (args.length != 2)
        {
            return arity(args);
        }
        return registry.use(key(args), filter -> filter == null ? Reply.integer(0) :
            filter instanceof BloomChain chain ? Reply.integer(chain.size()) : Reply.error(WRONGTYPE));
    }

    /**
     * @param args BF.SCANDUMP key iterator.
     * @return the iterator to ask for next and the chunk: the header for 0, then the layers' bytes, then 0 and "".
     */
    public Reply scandump(final byte[][] args)
    {
        if (args.length != 3)
        {
            return arity(args);
        }
        return withChain(args, chain ->
        {
            final Long iter = Arguments.integer(args[2]);
            if (iter == null)
            {
                return Reply.error("Second argument must be numeric");
            }
            if (iter == 0)
            {
                return Reply.Array.of(List.of(Reply.integer(1), new Reply.Bulk(chain.dumpHeader())));
            }
            final DumpChunk chunk = chain.dump(iter);
            return chunk == null ? Reply.Array.of(List.of(Reply.integer(0), new Reply.Bulk(new byte[0]))) :
                Reply.Array.of(List.of(Reply.integer(chunk.next()), new Reply.Bulk(chunk.data())));
        });
    }

    /**
     * @param args BF.LOADCHUNK key iterator data: a RedisBloom chunk (or a ddf chain's), as BF.SCANDUMP gave it.
     * @return OK, or RedisBloom's error; a refused chunk changes nothing.
     */
    public Reply loadchunk(final byte[][] args)
    {
        if (args.length != 4)
        {
            return arity(args);
        }
        final Long iter = Arguments.integer(args[2]);
        if (iter == null)
        {
            return Reply.error("ERR Second argument must be numeric");
        }
        final String key = key(args);
        final byte[] data = args[3];
        final Reply loaded = registry.use(key, filter ->
        {
            if (filter == null)
            {
                return iter == 1 ? null : Reply.error(NOT_FOUND);
            }
            if (!(filter instanceof BloomChain chain))
            {
                return Reply.error(WRONGTYPE);
            }
            return Outcomes.loaded(() -> chain.load(iter, new UnsafeBuffer(data), 0, data.length));
        });
        return loaded != null ? loaded : new Reply.Create(key, file -> BloomChain.fromDumpHeader(file, data), true,
            Reply.OK, BloomSemantics::cannotCreate);
    }

    /**
     * @param filter a scaling filter.
     * @return whether it is a Bloom chain (TYPE MBbloom--).
     */
    public static boolean isBloom(final ScalingFilter filter)
    {
        return filter instanceof BloomChain;
    }
}
