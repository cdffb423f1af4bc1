package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.Operation;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.redisbloom.Errors;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterEvents;
import io.ddf.ingest.store.FilterStore;
import io.ddf.ingest.store.FilterTypes;
import io.ddf.ingest.store.KeyNames;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * RedisBloom's BF.* commands over ddf's fixed-size filters (the kinds BF.RESERVE's {@code KIND} names, and every
 * filter under {@code serve --past-capacity forget}); {@link RedisBloomCommands} registers them and routes each key
 * here or to the filters that grow. Each element is judged where {@code serve --execution} says
 * ({@link Session#judge}: on the event loop by default, or through the pipeline) and its reply takes its place in
 * the connection's {@link ReplyWriter}, written once its verdicts are in; a filter made on first use (BF.ADD, BF.MADD) or by BF.RESERVE
 * is created off the event loop ({@link FilterStore#create}) and the reply waits for it.
 */
final class FilterCommands
{
    private final java.util.function.Supplier<FilterBuilder> defaultFilter;
    private final java.util.function.Consumer<String> log;
    private final FilterStore store;

    /**
     * @param store         the filters.
     * @param defaultFilter what a missing key gets.
     * @param log           the daemon's log.
     */
    FilterCommands(final FilterStore store, final java.util.function.Supplier<FilterBuilder> defaultFilter,
        final java.util.function.Consumer<String> log)
    {
        this.defaultFilter = defaultFilter;
        this.log = log;
        this.store = store;
    }

    /** BF.DEBUG on a fixed-size filter: RedisBloom's layers are the scaling filters'. */
    void debug(final Session session, final ByteBuf[] args)
    {
        throw new RespError("ERR " + KeyNames.display(session.key(args[1])) + " is a fixed-size ddf filter: " +
            "BF.INFO describes it");
    }

    /** BF.ADD and BF.MADD: make the filter on first use, then judge each item. */
    private void streamItems(final Session session, final ByteBuf[] args, final boolean array)
    {
        final String key = session.key(args[1]);
        try (FilterStore.Lease lease = FilterTypes.bloom(store, key))
        {
            if (lease == null)
            {
                session.checkItems(args, 2); // nothing is made for a command that will be refused
                session.retryAfter(store.create(key, defaultFilter, false), args);
                return;
            }
            session.judge(lease.filter(), Operation.STREAM, args, 2, array);
        }
    }

    void add(final Session session, final ByteBuf[] args)
    {
        streamItems(session, args, false);
    }

    void madd(final Session session, final ByteBuf[] args)
    {
        streamItems(session, args, true);
    }

    /** BF.EXISTS and BF.MEXISTS: a missing filter holds nothing. */
    private void containsItems(final Session session, final ByteBuf[] args, final boolean array)
    {
        try (FilterStore.Lease lease = FilterTypes.bloom(store, session.key(args[1])))
        {
            if (lease == null)
            {
                session.checkItems(args, 2);
                session.replies().ready(absent(args, 2, array));
                return;
            }
            session.judge(lease.filter(), Operation.CONTAINS, args, 2, array);
        }
    }

    /**
     * @param first the first item.
     * @return the reply of a lookup on a missing key: 0 for each item (an array of them when {@code array}).
     */
    static RedisMessage absent(final ByteBuf[] args, final int first, final boolean array)
    {
        if (!array)
        {
            return Replies.bool(false);
        }
        final List<RedisMessage> zeros = new ArrayList<>(args.length - first);
        for (int i = first; i < args.length; i++)
        {
            zeros.add(Replies.bool(false));
        }
        return new ArrayRedisMessage(zeros);
    }

    void exists(final Session session, final ByteBuf[] args)
    {
        containsItems(session, args, false);
    }

    void mexists(final Session session, final ByteBuf[] args)
    {
        containsItems(session, args, true);
    }

    void reserve(final Session session, final ByteBuf[] args)
    {
        try
        {
            reserveChecked(session, args);
        }
        catch (final RespError e)
        {
            log.accept(FilterEvents.refused(Replies.key(args[1]), e.getMessage()));
            throw e;
        }
    }

    private void reserveChecked(final Session session, final ByteBuf[] args)
    {
        final double errorRate;
        try
        {
            errorRate = Double.parseDouble(args[2].toString(StandardCharsets.US_ASCII));
        }
        catch (final NumberFormatException e)
        {
            throw new RespError(Errors.BAD_ERROR_RATE);
        }
        if (!(errorRate > 0 && errorRate < 1))
        {
            throw new RespError(Errors.ERROR_RATE_RANGE);
        }
        final long capacity = Replies.integer(args[3], Errors.BAD_CAPACITY);
        if (capacity <= 0)
        {
            throw new RespError(Errors.CAPACITY_NOT_POSITIVE);
        }
        final FilterBuilder builder = reserveBuilder(args, capacity, errorRate);
        session.await(store.create(Replies.key(args[1]), () -> builder, true),
            () -> session.replies().ready(Replies.OK));
    }

    /** BF.RESERVE's options after the capacity, by {@link ReserveOptions}. */
    static FilterBuilder reserveBuilder(final ByteBuf[] args, final long capacity, final double errorRate)
    {
        final List<String> options = new ArrayList<>();
        for (int i = 4; i < args.length; i++)
        {
            options.add(args[i].toString(StandardCharsets.UTF_8));
        }
        return ReserveOptions.builder(options, capacity, errorRate);
    }

    void info(final Session session, final ByteBuf[] args)
    {
        Command.atMost(args, 3, "bf.info");
        if (session.deferUntilJudged(args))
        {
            return;
        }
        try (FilterStore.Lease lease = FilterTypes.bloom(store, Replies.key(args[1])))
        {
            if (lease == null)
            {
                throw new RespError(Errors.NOT_FOUND);
            }
            final DuplicateFilter filter = lease.filter();
            // RedisBloom: one field is an array of its value in both protocols; every field a map in RESP3
            session.replies().ready(args.length == 3 ?
                new ArrayRedisMessage(List.of(Replies.value(
                    BloomInfo.field(filter, args[2].toString(StandardCharsets.UTF_8))))) :
                Replies.fields(BloomInfo.fields(filter)));
        }
    }

    void card(final Session session, final ByteBuf[] args)
    {
        if (session.deferUntilJudged(args))
        {
            return;
        }
        try (FilterStore.Lease lease = FilterTypes.bloom(store, Replies.key(args[1])))
        {
            session.replies().ready(lease == null ? Replies.ZERO :
                new IntegerRedisMessage(lease.filter().elements() - lease.filter().duplicates()));
        }
    }
}
