package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.Filters;
import io.ddf.engine.pipeline.Operation;
import io.ddf.engine.spi.ParamDef;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.util.ReferenceCountUtil;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
        final String key = Replies.key(args[1]);
        try (FilterStore.Lease lease = store.acquire(key))
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
        streamItems(session, args, Pending.ADD_ONE);
    }

    private void madd(final Session session, final ByteBuf[] args)
    {
        streamItems(session, args, Pending.many(true, args.length - 2));
    }

    /** BF.EXISTS and BF.MEXISTS: a missing filter holds nothing. */
    private void containsItems(final Session session, final ByteBuf[] args, final Pending reply,
        final RedisMessage missing)
    {
        checkItems(args);
        try (FilterStore.Lease lease = store.acquire(Replies.key(args[1])))
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
        containsItems(session, args, Pending.EXISTS_ONE, Replies.ZERO);
    }

    private void mexists(final Session session, final ByteBuf[] args)
    {
        final List<RedisMessage> zeros = new ArrayList<>();
        for (int i = 2; i < args.length; i++)
        {
            zeros.add(Replies.ZERO);
        }
        containsItems(session, args, Pending.many(false, args.length - 2), new ArrayRedisMessage(zeros));
    }

    private void reserve(final Session session, final ByteBuf[] args)
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

    /**
     * BF.RESERVE's options: {@code KIND name}, {@code SEED n}, {@code KEYED}, RedisBloom's {@code NONSCALING} and
     * {@code EXPANSION n} (accepted and ignored: ddf filters never grow), and any kind parameter as a name (the
     * command-line option without dashes) and a value. A QHT kind given none of rows, memory-bits, buckets or
     * fingerprint-bits is sized by {@link Sizing} for the capacity and error rate.
     */
    static FilterBuilder reserveBuilder(final ByteBuf[] args, final long capacity, final double errorRate)
    {
        FilterKind kind = FilterKind.QHT;
        Long seed = null;
        boolean keyed = false;
        final List<Map.Entry<String, String>> params = new ArrayList<>();
        for (int i = 4; i < args.length; i++)
        {
            final String option = Replies.word(args[i]);
            switch (option)
            {
                case "nonscaling" -> { }
                case "keyed" -> keyed = true;
                default ->
                {
                    if (i + 1 >= args.length)
                    {
                        throw new RespError("ERR syntax error: " + option + " needs a value");
                    }
                    final String value = args[++i].toString(StandardCharsets.UTF_8);
                    switch (option)
                    {
                        case "kind" ->
                        {
                            try
                            {
                                kind = FilterKind.fromName(value);
                            }
                            catch (final IllegalArgumentException e)
                            {
                                throw new RespError("ERR " + FilterStore.oneLine(e));
                            }
                        }
                        case "seed" -> seed = Replies.integer(value, "ERR bad seed");
                        case "expansion" -> Replies.integer(value, "ERR bad expansion");
                        default -> params.add(Map.entry(option, value));
                    }
                }
            }
        }
        final FilterBuilder builder;
        try
        {
            builder = Filters.builder(kind);
        }
        catch (final IllegalArgumentException e)
        {
            throw new RespError("ERR " + FilterStore.oneLine(e));
        }
        boolean sized = false;
        for (final Map.Entry<String, String> param : params)
        {
            final ParamDef def = paramDef(param.getKey());
            if (def == null)
            {
                throw new RespError("ERR unknown parameter '" + param.getKey() + "'");
            }
            sized |= List.of("rows", "memory-bits", "buckets", "fingerprint-bits").contains(def.name());
            try
            {
                if (def.type() == ParamDef.Type.DOUBLE)
                {
                    builder.param(def.name(), Double.parseDouble(param.getValue()));
                }
                else
                {
                    builder.param(def.name(), Long.parseLong(param.getValue()));
                }
            }
            catch (final NumberFormatException e)
            {
                throw new RespError("ERR bad value for " + def.name() + ": '" + param.getValue() + "'");
            }
        }
        final boolean qht = kind == FilterKind.QHT || kind == FilterKind.QHTD || kind == FilterKind.QQHTD;
        try
        {
            if (qht && !sized)
            {
                Sizing.apply(builder, capacity, errorRate);
            }
            if (seed != null)
            {
                builder.seed(seed);
            }
            builder.keyed(keyed);
            builder.parameters();
        }
        catch (final IllegalArgumentException e)
        {
            throw new RespError("ERR " + FilterStore.oneLine(e));
        }
        return builder;
    }

    private static ParamDef paramDef(final String name)
    {
        final Map.Entry<ParamDef, List<FilterKind>> option = FilterKind.options().get(name);
        return option == null ? null : option.getKey();
    }

    private void info(final Session session, final ByteBuf[] args)
    {
        Command.atMost(args, 3, "bf.info");
        final List<RedisMessage> info = new ArrayList<>();
        try (FilterStore.Lease lease = store.acquire(Replies.key(args[1])))
        {
            if (lease == null)
            {
                throw new RespError("ERR not found");
            }
            final DuplicateFilter filter = lease.filter();
            final FilterParameters parameters = filter.parameters();
            final Map<String, String> map = parameters.toMap();
            final RedisMessage capacity = map.containsKey("rows") && map.containsKey("buckets") ?
                new IntegerRedisMessage(Sizing.capacityOf(parameters.get("rows"), parameters.get("buckets"))) :
                FullBulkStringRedisMessage.NULL_INSTANCE;
            final long size = parameters.tableBytes();
            final long inserted = filter.elements() - filter.duplicates();
            if (args.length == 3)
            {
                final RedisMessage value = switch (Replies.word(args[2]))
                {
                    case "capacity" -> capacity;
                    case "size" -> new IntegerRedisMessage(size);
                    case "filters" -> Replies.ONE;
                    case "items" -> new IntegerRedisMessage(inserted);
                    case "expansion" -> FullBulkStringRedisMessage.NULL_INSTANCE;
                    default -> throw new RespError("ERR Invalid information value");
                };
                info.add(value);
            }
            else
            {
                info.add(Replies.bulk("Capacity"));
                info.add(capacity);
                info.add(Replies.bulk("Size"));
                info.add(new IntegerRedisMessage(size));
                info.add(Replies.bulk("Number of filters"));
                info.add(Replies.ONE);
                info.add(Replies.bulk("Number of items inserted"));
                info.add(new IntegerRedisMessage(inserted));
                info.add(Replies.bulk("Expansion rate"));
                info.add(FullBulkStringRedisMessage.NULL_INSTANCE);
                info.add(Replies.bulk("elements"));
                info.add(new IntegerRedisMessage(filter.elements()));
                info.add(Replies.bulk("duplicates"));
                info.add(new IntegerRedisMessage(filter.duplicates()));
                for (final Map.Entry<String, String> e : map.entrySet())
                {
                    info.add(Replies.bulk(e.getKey()));
                    info.add(Replies.bulk(e.getValue()));
                }
            }
        }
        catch (final RespError e)
        {
            info.forEach(ReferenceCountUtil::release);
            throw e;
        }
        session.replies().ready(new ArrayRedisMessage(info));
    }

    private void card(final Session session, final ByteBuf[] args)
    {
        try (FilterStore.Lease lease = store.acquire(Replies.key(args[1])))
        {
            session.replies().ready(lease == null ? Replies.ZERO :
                new IntegerRedisMessage(lease.filter().elements() - lease.filter().duplicates()));
        }
    }
}
