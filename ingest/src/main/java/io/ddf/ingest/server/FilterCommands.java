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
    private final RedisBloomRoute route;

    /** @param server the daemon. */
    FilterCommands(final DdfServer server)
    {
        this.server = server;
        this.store = server.store();
        this.route = server.route();
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
        table.add(Command.oneKey("bf.debug", 2, READ, GROUP,
            "A scaling filter's size and layers, as RedisBloom describes them.", this::debug));
    }

    /**
     * @return whether the command went to the scaling filters (RedisBloom's semantics), its reply queued.
     */
    private boolean scaling(final Session session, final ByteBuf[] args, final boolean creates,
        final java.util.function.Function<byte[][], io.ddf.ingest.redisbloom.Reply> command, final boolean booleans)
    {
        if (!route.scaling(session, args, creates))
        {
            return false;
        }
        RedisBloomRoute.run(session, args, command, booleans);
        return true;
    }

    private void debug(final Session session, final ByteBuf[] args)
    {
        if (!scaling(session, args, false, route.bloom()::debug, false))
        {
            throw new RespError(route.fixed(session.key(args[1])) ? "ERR " + session.key(args[1]) + " is a " +
                "fixed-size ddf filter: BF.INFO describes it" : "ERR not found");
        }
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
        if (scaling(session, args, true, route.bloom()::add, true))
        {
            return;
        }
        streamItems(session, args, Pending.one(session, true));
    }

    private void madd(final Session session, final ByteBuf[] args)
    {
        if (scaling(session, args, true, route.bloom()::add, true))
        {
            return;
        }
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
        if (scaling(session, args, false, route.bloom()::exists, true))
        {
            return;
        }
        containsItems(session, args, Pending.one(session, false), Replies.bool(session, false));
    }

    private void mexists(final Session session, final ByteBuf[] args)
    {
        if (scaling(session, args, false, route.bloom()::exists, true))
        {
            return;
        }
        final List<RedisMessage> zeros = new ArrayList<>();
        for (int i = 2; i < args.length; i++)
        {
            zeros.add(Replies.bool(session, false));
        }
        containsItems(session, args, Pending.many(session, false, args.length - 2), new ArrayRedisMessage(zeros));
    }

    private void reserve(final Session session, final ByteBuf[] args)
    {
        if (redisBloomOptionsOnly(args) && scaling(session, args, true, route.bloom()::reserve, false))
        {
            return;
        }
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
        if (route.registry().has(session.key(args[1])))
        {
            throw new RespError("ERR item exists");
        }
        final FilterBuilder builder = reserveBuilder(args, capacity, errorRate);
        session.await(store.create(Replies.key(args[1]), () -> builder, true),
            () -> session.replies().ready(Replies.OK));
    }

    /**
     * @return whether BF.RESERVE names only RedisBloom's options (EXPANSION, NONSCALING, or words RedisBloom ignores
     *         but none of ddf's: KIND, SEED, KEYED, a kind's parameters), so a scaling filter answers it.
     */
    private static boolean redisBloomOptionsOnly(final ByteBuf[] args)
    {
        for (int i = 4; i < args.length; i++)
        {
            final String word = args[i].toString(StandardCharsets.UTF_8);
            if (word.equalsIgnoreCase("KIND") || word.equalsIgnoreCase("SEED") || word.equalsIgnoreCase("KEYED") ||
                ReserveOptions.isParameterName(word))
            {
                return false;
            }
        }
        return true;
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
        if (args.length == 3 && args[2].toString(StandardCharsets.UTF_8).equalsIgnoreCase("DDF") &&
            scaling(session, args, false, route.bloom()::ddfInfo, false))
        {
            return;
        }
        if (scaling(session, args, false, route.bloom()::info, false))
        {
            return;
        }
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
        if (scaling(session, args, false, route.bloom()::card, false))
        {
            return;
        }
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
