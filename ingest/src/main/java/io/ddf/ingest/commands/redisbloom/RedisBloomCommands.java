package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.redisbloom.DumpChunks;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.redisbloom.BloomSemantics;
import io.ddf.ingest.store.FilterStore;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * RedisBloom's surface, in one place: every BF.* and CF.* command the daemon serves, with its arity, flags (RedisBloom
 * 2.4's: {@code write deny-oom} or {@code readonly fast}, so the ACL categories follow), key position and summary,
 * and where each key goes. A key lives in one of two stores ({@link FilterStore.Kind}), and a command on it runs
 * there:
 * <ul>
 * <li>the filters that grow ({@link ScalingCommands}: RedisBloom's semantics over ddf's scaling chain, RedisBloom's
 * own layouts and its cuckoo filter);</li>
 * <li>ddf's fixed-size filters ({@link FilterCommands}, {@link InsertCommand}, {@link CuckooCommands},
 * {@link ScanDump}: the kinds {@code KIND} names, the forgetting fifo-bloom and streaming cuckoo filter among them).</li>
 * </ul>
 * A missing key goes to the filters that grow unless the daemon forgets past the capacity ({@code serve --past-capacity
 * forget}), or the command asks for the other store itself: BF.RESERVE naming a ddf kind or option ({@code KIND
 * fifo-bloom}, {@code SEED}, ...) or a scaling one ({@code KIND scaling}, {@code KIND redisbloom}); a LOADCHUNK of a
 * ddf dump of a fixed-size filter, or of any other (RedisBloom's, a scaling chain's).
 *
 * <p>MODULE LIST and HELLO's {@code modules} name the {@code bf} module as a Redis with RedisBloom 2.4.23 does
 * ({@link #module()}), so that tools which look for RedisBloom find it.
 */
public final class RedisBloomCommands
{
    /** RedisBloom registers its writing commands {@code write deny-oom}, the others {@code readonly fast}. */
    private static final List<String> WRITE = List.of("write", "denyoom");
    private static final List<String> READ = List.of("readonly", "fast");

    /** Where a command on a missing key goes: true for the filters that grow. */
    @FunctionalInterface
    private interface Missing
    {
        boolean scaling(ByteBuf[] args);
    }

    private final FilterStore store;
    /**
     * The longest chunk LOADCHUNK reads ({@code --proto-max-bulk-len}, Redis's bulk limit): past
     * {@code --max-bulk-bytes}, so that any chunk a client sends is answered as RedisBloom answers it (a dump's
     * chunks are at most {@link DumpChunks#MAX_CHUNK}), still within {@code --max-request-bytes} and the daemon's
     * input budget.
     */
    private final long chunkBytes;
    private final boolean scaleByDefault;
    private final FilterCommands bf;
    private final InsertCommand insert;
    private final CuckooCommands cf;
    private final ScanDump dump;
    private final ScalingCommands scaling;

    /**
     * @param store         the filters.
     * @param config        what a missing key gets, and the item limit.
     * @param drain         returns once every element published so far for a filter has been judged.
     * @param defaultFilter the fixed-size filter a missing key gets under {@code --past-capacity forget}.
     * @param log           the daemon's log.
     */
    public RedisBloomCommands(final FilterStore store, final ServerConfig config,
        final java.util.function.Consumer<DuplicateFilter> drain,
        final java.util.function.Supplier<FilterBuilder> defaultFilter, final java.util.function.Consumer<String> log)
    {
        this.store = store;
        this.scaleByDefault = config.pastCapacity == ServerConfig.PastCapacity.SCALE;
        this.chunkBytes = config.protoMaxBulkLen;
        this.bf = new FilterCommands(store, defaultFilter, log);
        this.insert = new InsertCommand(store, config);
        this.cf = new CuckooCommands(store, config, drain);
        this.dump = new ScanDump(store, drain);
        this.scaling = new ScalingCommands(store, config);
    }

    /** @param table gets every BF.* and CF.* command, and MODULE. */
    public void register(final CommandTable table)
    {
        final Missing byDefault = args -> scaleByDefault;
        final Missing reserve = this::reserveScales;
        final Missing loadchunk = args -> !ScanDump.ddfChunk(args[3]);
        bloom(table, "bf.reserve", -4, WRITE, "Creates a filter: error rate, capacity, then EXPANSION n, " +
            "NONSCALING, or KIND (scaling, redisbloom, fifo-bloom...) and a ddf kind's parameters.", reserve,
            bf::reserve, scaling::reserve);
        bloom(table, "bf.add", 3, WRITE, "Adds an item; 1 if it was not seen before. Creates the filter on first " +
            "use.", byDefault, bf::add, scaling::add);
        bloom(table, "bf.madd", -3, WRITE, "Adds items; 1 for each not seen before. Creates the filter on first use.",
            byDefault, bf::madd, scaling::madd);
        bloom(table, "bf.insert", -4, WRITE, "[CAPACITY c] [ERROR e] [EXPANSION x] [NOCREATE] [NONSCALING] ITEMS " +
            "item...: creates the filter unless NOCREATE, then adds each item (1 if it was not seen before).",
            byDefault, insert::insert, scaling::insert);
        bloom(table, "bf.exists", 3, READ, "1 if the item may have been added.", byDefault, bf::exists,
            scaling::exists);
        bloom(table, "bf.mexists", -3, READ, "1 for each item that may have been added.", byDefault, bf::mexists,
            scaling::mexists);
        bloom(table, "bf.info", -2, READ, "Describes a filter, or one field of it (DDF: ddf's figures of one that " +
            "grows).", byDefault, bf::info, scaling::info);
        bloom(table, "bf.card", 2, READ, "Items added that were not seen before.", byDefault, bf::card,
            scaling::card);
        bloom(table, "bf.debug", 2, READ, "A scaling filter's size and layers, as RedisBloom describes them.",
            args -> true, bf::debug, scaling::debug);
        bloom(table, "bf.scandump", 3, READ, "Dumps a filter in chunks: iterator 0 first, then each iterator " +
            "answered, until it answers 0.", byDefault, (s, a) -> dump.scandump(s, a, false), scaling::scandump);
        table.add(Command.oneKey("bf.loadchunk", 4, WRITE, "bf", "Loads a chunk of BF.SCANDUMP (ddf's or " +
            "RedisBloom's), with the iterator it came with.", route(loadchunk, (s, a) -> dump.loadchunk(s, a, false),
                scaling::loadchunk)).largeArguments(chunkBytes));

        cuckoo(table, "cf.reserve", -3, WRITE, "Creates a cuckoo filter: capacity, then BUCKETSIZE, MAXITERATIONS, " +
            "EXPANSION.", cf::reserve, scaling.cuckoo(c -> c::reserve));
        cuckoo(table, "cf.add", 3, WRITE, "Adds a copy of an item (1). Creates the filter.", cf::add,
            scaling.cuckooItems(c -> c::add, 2));
        cuckoo(table, "cf.addnx", 3, WRITE, "Adds an item unless present: 1 added, 0 present.", cf::addnx,
            scaling.cuckooItems(c -> c::add, 2));
        cuckoo(table, "cf.insert", -4, WRITE, "[CAPACITY c] [NOCREATE] ITEMS item...: adds a copy of each (1 each, " +
            "-1 when full).", cf::insert, scaling.cuckooItems(c -> c::insert, 2));
        cuckoo(table, "cf.insertnx", -4, WRITE, "[CAPACITY c] [NOCREATE] ITEMS item...: adds each unless present " +
            "(1 added, 0 present, -1 when full).", cf::insertnx, scaling.cuckooItems(c -> c::insert, 2));
        cuckoo(table, "cf.exists", 3, READ, "1 if the item may be present.", cf::exists,
            scaling.cuckooItems(c -> c::check, 2));
        cuckoo(table, "cf.mexists", -3, READ, "1 for each item that may be present.", cf::mexists,
            scaling.cuckooItems(c -> c::check, 2));
        cuckoo(table, "cf.count", 3, READ, "How many copies of an item may be present.", cf::count,
            scaling.cuckooItems(c -> c::check, 2));
        // RedisBloom: "write fast" (a write that does not grow memory)
        cuckoo(table, "cf.del", 3, List.of("write", "fast"), "Deletes one copy of an item: 1 deleted, 0 absent.",
            cf::delete, scaling.cuckooItems(c -> c::delete, 2));
        cuckoo(table, "cf.info", 2, READ, "Describes a cuckoo filter.", cf::info, scaling.cuckoo(c -> c::info));
        cuckoo(table, "cf.debug", 2, READ, "A cuckoo filter's shape, as RedisBloom describes it.",
            cf::notRedisBloomCuckoo, scaling.cuckoo(c -> c::debug));
        // RedisBloom registers CF.COMPACT "readonly fast", though it moves fingerprints: its flags, as served there
        cuckoo(table, "cf.compact", 2, READ, "Moves fingerprints to older sub-filters and drops emptied ones.",
            cf::notRedisBloomCuckoo, scaling.cuckoo(c -> c::compact));
        cuckoo(table, "cf.scandump", 3, READ, "Dumps a cuckoo filter in chunks, as BF.SCANDUMP.",
            (s, a) -> dump.scandump(s, a, true), scaling.cuckoo(c -> c::scandump));
        table.add(Command.oneKey("cf.loadchunk", 4, WRITE, "cf", "Loads a chunk of CF.SCANDUMP (ddf's or " +
            "RedisBloom's), with the iterator it came with.", route(loadchunk, (s, a) -> dump.loadchunk(s, a, true),
                scaling.cuckoo(c -> c::loadchunk))).largeArguments(chunkBytes));
    }

    private void bloom(final CommandTable table, final String name, final int arity, final List<String> flags,
        final String summary, final Missing missing, final Command.Handler fixed, final Command.Handler grows)
    {
        table.add(Command.oneKey(name, arity, flags, "bf", summary, route(missing, fixed, grows)));
    }

    private void cuckoo(final CommandTable table, final String name, final int arity, final List<String> flags,
        final String summary, final Command.Handler fixed, final Command.Handler grows)
    {
        table.add(Command.oneKey(name, arity, flags, "cf", summary, route(args -> scaleByDefault, fixed, grows)));
    }

    /**
     * @return the handler that runs a command in the store of its key: {@code fixed} for a fixed-size filter,
     *         {@code grows} for one that grows, and as {@code missing} says for a missing key.
     */
    private Command.Handler route(final Missing missing, final Command.Handler fixed, final Command.Handler grows)
    {
        return (session, args) ->
        {
            final FilterStore.Kind kind = store.kind(session.key(args[1]));
            final boolean scales = kind == FilterStore.Kind.NONE ? missing.scaling(args) :
                kind == FilterStore.Kind.SCALING;
            (scales ? grows : fixed).execute(session, args);
        };
    }

    /**
     * BF.RESERVE on a missing key: a scaling filter when it names a scaling {@code KIND}, a fixed-size one when it
     * names any other ddf word ({@code KIND}, {@code SEED}, {@code KEYED}, a kind's parameter), else the default.
     */
    private boolean reserveScales(final ByteBuf[] args)
    {
        for (int i = 4; i < args.length; i++)
        {
            final String word = args[i].toString(StandardCharsets.UTF_8);
            if (word.equalsIgnoreCase("KIND"))
            {
                return i + 1 < args.length && BloomSemantics.isScalingKind(args[i + 1].toString(
                    StandardCharsets.ISO_8859_1));
            }
            if (word.equalsIgnoreCase("SEED") || word.equalsIgnoreCase("KEYED") ||
                ReserveOptions.isParameterName(word))
            {
                return false;
            }
        }
        return scaleByDefault;
    }
}
