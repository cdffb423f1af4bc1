package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.Operation;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * RedisBloom's BF.* commands over the named filters. Elements go through the pipeline and their replies wait in
 * the connection's {@link ReplyQueue} for the verdicts; a filter made on first use (BF.ADD, BF.MADD) or by
 * BF.RESERVE is created off the event loop ({@link FilterStore#create}) and the reply waits for it.
 */
final class FilterCommands
{
    private static final List<String> WRITE = List.of("write", "denyoom");
    private static final List<String> READ = List.of("readonly", "fast");
    private static final String GROUP = "bf";

    private final DdfServer server;
    private final FilterStore store;

    /** @param server the daemon. */
    FilterCommands(final DdfServer server)
    {
        this.server = server;
        this.store = server.store();
    }

    /** @param table gets BF.ADD, BF.MADD, BF.EXISTS, BF.MEXISTS, BF.RESERVE, BF.INFO and BF.CARD. */
    void register(final CommandTable table)
    {
        table.add(Command.oneKey("bf.add", 3, WRITE, GROUP,
            "Adds an item; 1 if it was not seen before. Creates the filter on first use.", this::add));
        table.add(Command.oneKey("bf.madd", -3, WRITE, GROUP,
            "Adds items; 1 for each not seen before. Creates the filter on first use.", this::madd));
        table.add(Command.oneKey("bf.exists", 3, READ, GROUP, "1 if the item may have been added.", this::exists));
        table.add(Command.oneKey("bf.mexists", -3, READ, GROUP, "1 for each item that may have been added.",
            this::mexists));
        table.add(Command.oneKey("bf.reserve", -4, WRITE, GROUP,
            "Creates a filter: error rate, capacity, then KIND, SEED, KEYED or kind parameters.", this::reserve));
        table.add(Command.oneKey("bf.info", -2, READ, GROUP, "Describes a filter, or one field of it.",
            this::info));
        table.add(Command.oneKey("bf.card", 2, READ, GROUP, "Items added that were not seen before.", this::card));
    }

    private void checkItems(final ByteBuf[] args)
    {
        final int max = server.config().maxItemBytes;
        for (int i = 2; i < args.length; i++)
        {
            if (args[i].readableBytes() > max)
            {
                throw new RespError("ERR item of " + args[i].readableBytes() + " bytes is longer than the " + max +
                    "-byte limit");
            }
        }
    }

    /** BF.ADD and BF.MADD: make the filter on first use, then judge each item. */
    private void streamItems(final Session session, final ByteBuf[] args, final Pending reply)
    {
        checkItems(args);
        final String key = session.key(args[1]);
        try (FilterStore.Lease lease = FilterTypes.bloom(store, key))
        {
            if (lease == null)
            {
                session.retryAfter(store.create(key, server::defaultFilter, false), args);
                return;
            }
            session.replies().awaitVerdicts(reply);
            for (int i = 2; i < args.length; i++)
            {
                session.publish(lease.filter(), Operation.STREAM, args[i]);
            }
        }
    }

    private void add(final Session session, final ByteBuf[] args)
    {
        streamItems(session, args, Pending.one(session, true));
    }

    private void madd(final Session session, final ByteBuf[] args)
    {
        streamItems(session, args, Pending.many(session, true, args.length - 2));
    }

    /** BF.EXISTS and BF.MEXISTS: a missing filter holds nothing. */
    private void containsItems(final Session session, final ByteBuf[] args, final Pending reply,
        final RedisMessage missing)
    {
        checkItems(args);
        try (FilterStore.Lease lease = FilterTypes.bloom(store, session.key(args[1])))
        {
            if (lease == null)
            {
                session.replies().ready(missing);
                return;
            }
            session.replies().awaitVerdicts(reply);
            for (int i = 2; i < args.length; i++)
            {
                session.publish(lease.filter(), Operation.CONTAINS, args[i]);
            }
        }
    }

    private void exists(final Session session, final ByteBuf[] args)
    {
        containsItems(session, args, Pending.one(session, false), Replies.bool(session, false));
    }

    private void mexists(final Session session, final ByteBuf[] args)
    {
        final List<RedisMessage> zeros = new ArrayList<>();
        for (int i = 2; i < args.length; i++)
        {
            zeros.add(Replies.bool(session, false));
        }
        containsItems(session, args, Pending.many(session, false, args.length - 2), new ArrayRedisMessage(zeros));
    }

    private void reserve(final Session session, final ByteBuf[] args)
    {
        try
        {
            reserveChecked(session, args);
        }
        catch (final RespError e)
        {
            server.log(FilterEvents.refused(Replies.key(args[1]), e.getMessage()));
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
            throw new RespError("ERR bad error rate");
        }
        if (!(errorRate > 0 && errorRate < 1))
        {
            throw new RespError("ERR (0 < error rate range < 1)");
        }
        final long capacity = Replies.integer(args[3], "ERR bad capacity");
        if (capacity <= 0)
        {
            throw new RespError("ERR (capacity should be larger than 0)");
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

    private void info(final Session session, final ByteBuf[] args)
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
                throw new RespError("ERR not found");
            }
            final DuplicateFilter filter = lease.filter();
            // RedisBloom: one field is an array of its value in both protocols; every field a map in RESP3
            session.replies().ready(args.length == 3 ?
                new ArrayRedisMessage(List.of(Replies.value(session,
                    BloomInfo.field(filter, args[2].toString(StandardCharsets.UTF_8))))) :
                Replies.fields(session, BloomInfo.fields(filter)));
        }
    }

    private void card(final Session session, final ByteBuf[] args)
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
