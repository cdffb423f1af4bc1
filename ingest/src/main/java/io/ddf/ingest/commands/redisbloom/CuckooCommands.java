package io.ddf.ingest.commands.redisbloom;

import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.redisbloom.Creation;
import io.ddf.ingest.redisbloom.CuckooInsertRequest;
import io.ddf.ingest.redisbloom.CuckooReserveRequest;
import io.ddf.ingest.redisbloom.CuckooSemantics;
import io.ddf.ingest.store.FilterStore;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.RedisMessage;

import java.util.List;
import java.util.function.Function;

import static io.ddf.ingest.commands.redisbloom.RedisBloomCommands.READ;
import static io.ddf.ingest.commands.redisbloom.RedisBloomCommands.WRITE;

/**
 * The CF.* commands, each parsed once and run where its key lives: on RedisBloom's own cuckoo filter, which grows
 * (what a missing key gets by default: {@link CuckooSemantics}), or on ddf's streaming cuckoo filter, which forgets
 * ({@code serve --past-capacity forget}: {@link StreamingCuckoo}). Every command that takes items has them checked
 * against {@code --max-item-bytes} here, once, in both.
 */
final class CuckooCommands
{
    private final FilterStore store;
    private final CuckooSemantics semantics;
    private final Scaling scaling;
    private final StreamingCuckoo streaming;
    private final boolean scaleByDefault;

    /**
     * @param store     the filters.
     * @param scaling   runs RedisBloom's semantics.
     * @param streaming ddf's streaming cuckoo filter's commands.
     * @param config    what a missing key gets.
     */
    CuckooCommands(final FilterStore store, final Scaling scaling, final StreamingCuckoo streaming,
        final ServerConfig config)
    {
        this.store = store;
        this.semantics = new CuckooSemantics(store.scaling());
        this.scaling = scaling;
        this.streaming = streaming;
        this.scaleByDefault = config.pastCapacity == ServerConfig.PastCapacity.SCALE;
    }

    /** @return whether the key's commands run on RedisBloom's cuckoo filter (a missing key: the daemon's default). */
    private boolean grows(final Session session, final ByteBuf key)
    {
        final FilterStore.Kind kind = store.kind(session.key(key));
        return kind == FilterStore.Kind.NONE ? scaleByDefault : kind == FilterStore.Kind.SCALING;
    }

    /**
     * Declares every CF.* command, once: its arity, RedisBloom's flags, key position, summary and handler.
     *
     * @param table      the daemon's commands.
     * @param dump       the dumps of fixed-size filters.
     * @param chunkBytes the longest chunk LOADCHUNK reads.
     */
    void register(final CommandTable table, final ScanDump dump, final long chunkBytes)
    {
        cuckoo(table, "cf.reserve", -3, WRITE, "Creates a cuckoo filter: capacity, then BUCKETSIZE, MAXITERATIONS, " +
            "EXPANSION.", this::reserve);
        cuckoo(table, "cf.add", 3, WRITE, "Adds a copy of an item (1). Creates the filter.", this::add);
        cuckoo(table, "cf.addnx", 3, WRITE, "Adds an item unless present: 1 added, 0 present.", this::addnx);
        cuckoo(table, "cf.insert", -4, WRITE, "[CAPACITY c] [NOCREATE] ITEMS item...: adds a copy of each (1 each, " +
            "-1 when full).", this::insert);
        cuckoo(table, "cf.insertnx", -4, WRITE, "[CAPACITY c] [NOCREATE] ITEMS item...: adds each unless present " +
            "(1 added, 0 present, -1 when full).", this::insertnx);
        cuckoo(table, "cf.exists", 3, READ, "1 if the item may be present.", this::exists);
        cuckoo(table, "cf.mexists", -3, READ, "1 for each item that may be present.", this::mexists);
        cuckoo(table, "cf.count", 3, READ, "How many copies of an item may be present.", this::count);
        // RedisBloom: "write fast" (a write that does not grow memory)
        cuckoo(table, "cf.del", 3, List.of("write", "fast"), "Deletes one copy of an item: 1 deleted, 0 absent.",
            this::delete);
        cuckoo(table, "cf.info", 2, READ, "Describes a cuckoo filter.", this::info);
        cuckoo(table, "cf.debug", 2, READ, "A cuckoo filter's shape, as RedisBloom describes it.", this::debug);
        // RedisBloom registers CF.COMPACT "readonly fast", though it moves fingerprints: its flags, as served there
        cuckoo(table, "cf.compact", 2, READ, "Moves fingerprints to older sub-filters and drops emptied ones.",
            this::compact);
        cuckoo(table, "cf.scandump", 3, READ, "Dumps a cuckoo filter in chunks, as BF.SCANDUMP.",
            (s, a) -> scandump(s, a, dump));
        table.add(Command.oneKey("cf.loadchunk", 4, WRITE, "cf", "Loads a chunk of CF.SCANDUMP (ddf's or " +
            "RedisBloom's), with the iterator it came with.", (s, a) -> loadchunk(s, a, dump))
            .largeArguments(chunkBytes));
    }

    private static void cuckoo(final CommandTable table, final String name, final int arity,
        final List<String> flags, final String summary, final Command.Handler handler)
    {
        table.add(Command.oneKey(name, arity, flags, "cf", summary, handler));
    }

    void reserve(final Session session, final ByteBuf[] args)
    {
        final CuckooReserveRequest request = CuckooReserveRequest.parse(args);
        if (grows(session, args[1]))
        {
            scaling.createThenOk(session, semantics.reserve(request));
            return;
        }
        streaming.reserve(session, request);
    }

    void add(final Session session, final ByteBuf[] args)
    {
        added(session, args, false);
    }

    void addnx(final Session session, final ByteBuf[] args)
    {
        added(session, args, true);
    }

    private void added(final Session session, final ByteBuf[] args, final boolean unique)
    {
        session.checkItems(args, 2);
        if (!grows(session, args[1]))
        {
            if (unique)
            {
                streaming.addnx(session, args);
            }
            else
            {
                streaming.add(session, args);
            }
            return;
        }
        final Creation creation = semantics.toInsert(session.key(args[1]), true,
            CuckooReserveRequest.DEFAULT_CAPACITY);
        if (creation != null)
        {
            scaling.createThenRetry(session, args, creation);
            return;
        }
        scaling.run(session, args, semantics::add);
    }

    void insert(final Session session, final ByteBuf[] args)
    {
        inserted(session, args, false);
    }

    void insertnx(final Session session, final ByteBuf[] args)
    {
        inserted(session, args, true);
    }

    private void inserted(final Session session, final ByteBuf[] args, final boolean unique)
    {
        final CuckooInsertRequest request = CuckooInsertRequest.parse(args);
        session.checkItems(args, request.firstItem());
        if (!grows(session, args[1]))
        {
            streaming.insert(session, args, request, unique);
            return;
        }
        final Creation creation = semantics.toInsert(request.key(), !request.noCreate(),
            request.capacityOr(CuckooReserveRequest.DEFAULT_CAPACITY));
        if (creation != null)
        {
            scaling.createThenRetry(session, args, creation);
            return;
        }
        scaling.run(session, args, bytes -> semantics.insert(request, bytes, unique));
    }

    void exists(final Session session, final ByteBuf[] args)
    {
        items(session, args, streaming::exists);
    }

    void mexists(final Session session, final ByteBuf[] args)
    {
        items(session, args, streaming::mexists);
    }

    void count(final Session session, final ByteBuf[] args)
    {
        items(session, args, streaming::count);
    }

    /** CF.EXISTS, CF.MEXISTS, CF.COUNT: RedisBloom answers 0 for a missing key, and for a key of another type. */
    private void items(final Session session, final ByteBuf[] args, final Handler fixed)
    {
        session.checkItems(args, 2);
        if (grows(session, args[1]))
        {
            scaling.run(session, args, semantics::check);
            return;
        }
        fixed.run(session, args);
    }

    void delete(final Session session, final ByteBuf[] args)
    {
        session.checkItems(args, 2);
        route(session, args, streaming::delete, semantics::delete);
    }

    void info(final Session session, final ByteBuf[] args)
    {
        route(session, args, streaming::info, semantics::info);
    }

    void debug(final Session session, final ByteBuf[] args)
    {
        route(session, args, streaming::notRedisBloomCuckoo, semantics::debug);
    }

    void compact(final Session session, final ByteBuf[] args)
    {
        route(session, args, streaming::notRedisBloomCuckoo, semantics::compact);
    }

    void scandump(final Session session, final ByteBuf[] args, final ScanDump dump)
    {
        route(session, args, (s, a) -> dump.scandump(s, a, true), semantics::scandump);
    }

    void loadchunk(final Session session, final ByteBuf[] args, final ScanDump dump)
    {
        if (dump.loads(session.key(args[1]), args[3]))
        {
            dump.loadchunk(session, args, true);
            return;
        }
        scaling.loadchunk(session, args, semantics::toLoad, semantics::loadchunk);
    }

    /** A command on ddf's streaming cuckoo filter. */
    @FunctionalInterface
    private interface Handler
    {
        void run(Session session, ByteBuf[] args);
    }

    private void route(final Session session, final ByteBuf[] args, final Handler fixed,
        final Function<byte[][], RedisMessage> grows)
    {
        if (grows(session, args[1]))
        {
            scaling.run(session, args, grows);
            return;
        }
        fixed.run(session, args);
    }
}
