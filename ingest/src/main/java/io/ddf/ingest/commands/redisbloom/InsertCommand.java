package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.FilterBuilder;
import io.ddf.engine.Operation;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.redisbloom.Errors;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterStore;
import io.ddf.ingest.store.FilterTypes;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * BF.INSERT key [CAPACITY c] [ERROR e] [EXPANSION x] [NOCREATE] [NONSCALING] ITEMS item...: BF.RESERVE and BF.MADD
 * in one, with RedisBloom's errors. A missing key is made as BF.RESERVE would make it (README "Capacity"), with
 * the server's default capacity and error rate for those not given; NOCREATE on a missing key answers
 * {@code ERR not found} and makes nothing. The options are checked even when the key exists (RedisBloom then
 * ignores them), so that a refused combination is refused the same way whether or not the key exists.
 */
final class InsertCommand
{
    private final ServerConfig config;
    private final FilterStore store;

    /**
     * @param store  the filters.
     * @param config the sizes of filters made on first use.
     */
    InsertCommand(final FilterStore store, final ServerConfig config)
    {
        this.config = config;
        this.store = store;
    }

    void insert(final Session session, final ByteBuf[] args)
    {
        long capacity = config.capacityOfMissingKeys(false);
        double errorRate = config.defaultErrorRate;
        boolean noCreate = false;
        final List<String> reserveOptions = new ArrayList<>();
        int i = 2;
        while (i < args.length && !"items".equals(Replies.word(args[i])))
        {
            final String option = Replies.word(args[i]);
            switch (option)
            {
                case "nocreate" -> noCreate = true;
                case "nonscaling" -> reserveOptions.add(option);
                case "capacity", "error", "expansion" ->
                {
                    if (++i >= args.length)
                    {
                        throw Command.wrongArity("bf.insert");
                    }
                    switch (option)
                    {
                        case "capacity" -> capacity = Replies.integer(args[i], Errors.CAPACITY_NOT_A_NUMBER);
                        case "error" -> errorRate = errorRate(args[i]);
                        default ->
                        {
                            reserveOptions.add(option);
                            reserveOptions.add(args[i].toString(StandardCharsets.UTF_8));
                        }
                    }
                }
                default -> throw new RespError("ERR unknown argument '" + option + "'");
            }
            i++;
        }
        if (i + 1 >= args.length)
        {
            throw Command.wrongArity("bf.insert"); // no ITEMS, or ITEMS without an item
        }
        if (capacity <= 0)
        {
            throw new RespError(Errors.CAPACITY_NOT_POSITIVE);
        }
        final int first = i + 1;
        session.checkItems(args, first);
        final FilterBuilder builder = ReserveOptions.builder(reserveOptions, capacity, errorRate);
        final String key = Replies.key(args[1]);
        try (FilterStore.Lease lease = FilterTypes.bloom(store, key))
        {
            if (lease == null)
            {
                if (noCreate)
                {
                    throw new RespError(Errors.NOT_FOUND);
                }
                session.retryAfter(store.create(key, () -> builder, false), args);
                return;
            }
            session.judge(lease.filter(), Operation.STREAM, args, first, true);
        }
    }

    private static double errorRate(final ByteBuf arg)
    {
        final double errorRate;
        try
        {
            errorRate = Double.parseDouble(arg.toString(StandardCharsets.US_ASCII));
        }
        catch (final NumberFormatException e)
        {
            throw new RespError("ERR Bad error rate");
        }
        if (!(errorRate > 0 && errorRate < 1))
        {
            throw new RespError("ERR Bad error rate");
        }
        return errorRate;
    }
}
