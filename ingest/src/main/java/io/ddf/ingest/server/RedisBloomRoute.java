package io.ddf.ingest.server;

import io.ddf.ingest.redisbloom.BloomSemantics;
import io.ddf.ingest.redisbloom.CuckooSemantics;
import io.ddf.ingest.redisbloom.Reply;
import io.ddf.ingest.redisbloom.ScalingRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Where a BF.* or CF.* command goes: to ddf's fixed-size filters ({@link FilterStore}, the kinds BF.RESERVE's
 * {@code KIND} names, the forgetting {@code fifo-bloom} among them) or to the scaling filters with RedisBloom's
 * semantics ({@link ScalingRegistry}: ddf's scaling chain, RedisBloom's own layouts loaded from its dumps, its cuckoo
 * filter). A key of either kind stays with it; a missing key goes to the scaling filters unless the daemon forgets
 * past the capacity ({@code serve --past-capacity forget}) or the command names a ddf kind. The scaling side answers
 * with {@link Reply} values, written here in the connection's protocol (RESP3 booleans for the verdict commands).
 */
final class RedisBloomRoute
{
    private final FilterStore store;
    private final ScalingRegistry registry;
    private final BloomSemantics bloom;
    private final CuckooSemantics cuckoo;
    private final boolean scaleByDefault;

    /**
     * @param store          ddf's fixed-size filters.
     * @param registry       the scaling filters.
     * @param config         the daemon's settings (its default capacity and error rate, --past-capacity).
     */
    RedisBloomRoute(final FilterStore store, final ScalingRegistry registry, final ServerConfig config)
    {
        this.store = store;
        this.registry = registry;
        this.bloom = new BloomSemantics(registry, config.defaultCapacityGiven ? config.defaultCapacity :
            ServerConfig.SCALING_DEFAULT_CAPACITY, config.defaultErrorRate, config.redisBloomLayout);
        this.cuckoo = new CuckooSemantics(registry);
        this.scaleByDefault = config.pastCapacity == ServerConfig.PastCapacity.SCALE;
    }

    /** RedisBloom's module name and the version whose semantics ddf serves (2.4.23, as its MODULE LIST says it). */
    static final String MODULE_NAME = "bf";
    static final long MODULE_VERSION = 20423;

    /**
     * @param session the connection.
     * @return the {@code bf} module as HELLO's {@code modules} and MODULE LIST describe a loaded module: name,
     *         version, path (ddf's own, as nothing is loaded) and arguments.
     */
    static RedisMessage module(final Session session)
    {
        return Replies.map(session, List.of(Replies.bulk("name"), Replies.bulk(MODULE_NAME), Replies.bulk("ver"),
            new IntegerRedisMessage(MODULE_VERSION), Replies.bulk("path"), Replies.bulk("ddf (built in)"),
            Replies.bulk("args"), Replies.empty()));
    }

    /** @return the scaling filters. */
    ScalingRegistry registry()
    {
        return registry;
    }

    /** @return BF.* over the scaling filters. */
    BloomSemantics bloom()
    {
        return bloom;
    }

    /** @return CF.* over the scaling filters. */
    CuckooSemantics cuckoo()
    {
        return cuckoo;
    }

    /**
     * @param key a key.
     * @return whether ddf's fixed-size store has it (a filter, or a file it could not open).
     */
    boolean fixed(final String key)
    {
        return store.get(key) != null || store.isForeign(key);
    }

    /** @return every key: ddf's fixed-size filters' and the scaling filters', sorted. */
    java.util.SortedSet<String> keys()
    {
        final java.util.SortedSet<String> keys = new java.util.TreeSet<>(store.keys());
        keys.addAll(registry.keys());
        return keys;
    }

    /** @return the number of keys. */
    int size()
    {
        return store.size() + registry.size();
    }

    /**
     * @param key a key.
     * @return TYPE's answer: {@code MBbloom--} or {@code MBbloomCF}, {@code unknown} for a file that is neither,
     *         {@code none}.
     */
    String type(final String key)
    {
        if (registry.has(key))
        {
            return registry.use(key, filter -> filter == null ? "unknown" :
                CuckooSemantics.isCuckoo(filter) ? FilterTypes.CUCKOO : FilterTypes.BLOOM);
        }
        final io.ddf.engine.DuplicateFilter filter = store.get(key);
        return filter != null ? FilterTypes.name(filter) : store.isForeign(key) ? "unknown" : "none";
    }

    /**
     * @param key a key.
     * @return whether it exists.
     */
    boolean exists(final String key)
    {
        return fixed(key) || registry.has(key);
    }

    /**
     * @param key a key.
     * @return the bytes of its file, or -1 when it has none.
     */
    long fileBytes(final String key)
    {
        return registry.has(key) ? registry.use(key, filter -> filter == null ? -1L : filter.fileBytes()) : -1;
    }

    /**
     * @param session the connection.
     * @param args    a CF.* command.
     * @return whether it goes to ddf's streaming cuckoo filter: a key that has one, or a missing key when the daemon
     *         forgets past the capacity ({@code --past-capacity forget}: ddf's filters that forget, for both
     *         families).
     */
    boolean cuckooFixed(final Session session, final ByteBuf[] args)
    {
        if (args.length < 2)
        {
            return !scaleByDefault;
        }
        final String key = session.key(args[1]);
        return fixed(key) || !scaleByDefault && !registry.has(key);
    }

    /**
     * @param session the connection.
     * @param args    a BF.* command.
     * @param creates whether the command makes a missing key.
     * @return whether it goes to the scaling filters.
     */
    boolean scaling(final Session session, final ByteBuf[] args, final boolean creates)
    {
        if (args.length < 2)
        {
            return scaleByDefault;
        }
        final String key = session.key(args[1]);
        if (fixed(key))
        {
            return false;
        }
        return registry.has(key) || creates && scaleByDefault;
    }

    /**
     * Runs a command on the scaling side and queues its reply.
     *
     * @param session  the connection.
     * @param args     the command.
     * @param command  the semantics.
     * @param booleans whether RESP3 gets 0 and 1 as booleans (RedisBloom 2.6's verdict replies).
     */
    static void run(final Session session, final ByteBuf[] args, final Function<byte[][], Reply> command,
        final boolean booleans)
    {
        final Reply reply;
        try
        {
            reply = command.apply(bytes(args));
        }
        catch (final IllegalStateException | IllegalArgumentException ex)
        {
            session.replies().ready(new ErrorRedisMessage(ex.getMessage() != null && ex.getMessage()
                .startsWith("ERR") ? ex.getMessage() : "ERR " + ex.getMessage()));
            return;
        }
        session.replies().ready(message(session, reply, booleans && session.client().resp3()));
    }

    static byte[][] bytes(final ByteBuf[] args)
    {
        final byte[][] bytes = new byte[args.length][];
        for (int i = 0; i < args.length; i++)
        {
            bytes[i] = new byte[args[i].readableBytes()];
            args[i].getBytes(args[i].readerIndex(), bytes[i]);
        }
        return bytes;
    }

    /**
     * @param session  the connection.
     * @param reply    an answer.
     * @param booleans whether integers 0 and 1 become RESP3 booleans.
     * @return it in the connection's protocol.
     */
    static RedisMessage message(final Session session, final Reply reply, final boolean booleans)
    {
        if (reply instanceof Reply.Int value)
        {
            return booleans && (value.value() == 0 || value.value() == 1) ? Replies.bool(true, value.value() == 1) :
                new IntegerRedisMessage(value.value());
        }
        if (reply instanceof Reply.Simple simple)
        {
            return new SimpleStringRedisMessage(simple.text());
        }
        if (reply instanceof Reply.Error error)
        {
            return new ErrorRedisMessage(error.text());
        }
        if (reply instanceof Reply.Bulk bulk)
        {
            return new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(bulk.bytes()));
        }
        if (reply instanceof Reply.Array array)
        {
            final List<RedisMessage> items = new ArrayList<>(array.items().size());
            for (final Reply item : array.items())
            {
                items.add(message(session, item, booleans));
            }
            return array.map() ? Replies.map(session, items) : new ArrayRedisMessage(items);
        }
        return Replies.nil(session);
    }
}
