package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.redisbloom.DumpChunks;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.store.FilterStore;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * RedisBloom's surface, in one place: every BF.* and CF.* command the daemon serves, with its arity, flags (RedisBloom
 * 2.4's: {@code write deny-oom} or {@code readonly fast}, so the ACL categories follow), key position, summary and
 * handler. A command is parsed once ({@code io.ddf.ingest.redisbloom}'s requests) and runs where its key lives
 * ({@link FilterStore.Kind}): on a filter that grows (RedisBloom's semantics over ddf's chain, RedisBloom's own
 * layouts and its cuckoo filter) or on one of ddf's fixed-size filters (the kinds {@code KIND} names, the forgetting
 * fifo-bloom and streaming cuckoo filter among them): {@link BloomCommands} for BF.*, {@link CuckooCommands} for CF.*,
 * {@link ScanDump} for the dumps of fixed-size filters.
 *
 * <p>A missing key goes to the filters that grow unless the daemon forgets past the capacity ({@code serve
 * --past-capacity forget}), or the command asks for the other store itself: BF.RESERVE naming a ddf kind or option
 * ({@code KIND fifo-bloom}, {@code SEED}, ...) or a scaling one ({@code KIND scaling}, {@code KIND redisbloom}); a
 * LOADCHUNK of a ddf dump of a fixed-size filter, or of any other (RedisBloom's, a scaling chain's).
 *
 * <p>MODULE LIST and HELLO's {@code modules} name the {@code bf} module as a Redis with RedisBloom 2.4.23 does, so that
 * tools which look for RedisBloom find it.
 */
public final class RedisBloomCommands
{
    /** RedisBloom registers its writing commands {@code write deny-oom}, the others {@code readonly fast}. */
    private static final List<String> WRITE = List.of("write", "denyoom");
    private static final List<String> READ = List.of("readonly", "fast");

    /**
     * The longest chunk LOADCHUNK reads ({@code --proto-max-bulk-len}, Redis's bulk limit): past
     * {@code --max-bulk-bytes}, so that any chunk a client sends is answered as RedisBloom answers it (a dump's
     * chunks are at most {@link DumpChunks#MAX_CHUNK}), still within {@code --max-request-bytes} and the daemon's
     * input budget.
     */
    private final long chunkBytes;
    private final BloomCommands bf;
    private final CuckooCommands cf;
    private final ScanDump dump;

    /**
     * @param store         the filters.
     * @param config        what a missing key gets, and the item limit.
     * @param drain         returns once every element published so far for a filter has been judged.
     * @param defaultFilter the fixed-size filter a missing key gets under {@code --past-capacity forget}.
     * @param log           the daemon's log.
     */
    public RedisBloomCommands(final FilterStore store, final ServerConfig config,
        final Consumer<DuplicateFilter> drain, final Supplier<FilterBuilder> defaultFilter,
        final Consumer<String> log)
    {
        this.chunkBytes = config.protoMaxBulkLen;
        final Scaling scaling = new Scaling(store);
        this.bf = new BloomCommands(store, scaling, config, defaultFilter, log);
        this.cf = new CuckooCommands(store, scaling, new StreamingCuckoo(store, config, drain), config);
        this.dump = new ScanDump(store, drain);
    }

    /** @param table gets every BF.* and CF.* command. */
    public void register(final CommandTable table)
    {
        bloom(table, "bf.reserve", -4, WRITE, "Creates a filter: error rate, capacity, then EXPANSION n, " +
            "NONSCALING, or KIND (scaling, redisbloom, fifo-bloom...) and a ddf kind's parameters.", bf::reserve);
        bloom(table, "bf.add", 3, WRITE, "Adds an item; 1 if it was not seen before. Creates the filter on first " +
            "use.", bf::add);
        bloom(table, "bf.madd", -3, WRITE, "Adds items; 1 for each not seen before. Creates the filter on first use.",
            bf::madd);
        bloom(table, "bf.insert", -4, WRITE, "[CAPACITY c] [ERROR e] [EXPANSION x] [NOCREATE] [NONSCALING] ITEMS " +
            "item...: creates the filter unless NOCREATE, then adds each item (1 if it was not seen before).",
            bf::insert);
        bloom(table, "bf.exists", 3, READ, "1 if the item may have been added.", bf::exists);
        bloom(table, "bf.mexists", -3, READ, "1 for each item that may have been added.", bf::mexists);
        bloom(table, "bf.info", -2, READ, "Describes a filter, or one field of it (DDF: ddf's figures of one that " +
            "grows).", bf::info);
        bloom(table, "bf.card", 2, READ, "Items added that were not seen before.", bf::card);
        bloom(table, "bf.debug", 2, READ, "A scaling filter's size and layers, as RedisBloom describes them.",
            bf::debug);
        bloom(table, "bf.scandump", 3, READ, "Dumps a filter in chunks: iterator 0 first, then each iterator " +
            "answered, until it answers 0.", (s, a) -> bf.scandump(s, a, dump));
        table.add(Command.oneKey("bf.loadchunk", 4, WRITE, "bf", "Loads a chunk of BF.SCANDUMP (ddf's or " +
            "RedisBloom's), with the iterator it came with.", (s, a) -> bf.loadchunk(s, a, dump))
            .largeArguments(chunkBytes));

        cuckoo(table, "cf.reserve", -3, WRITE, "Creates a cuckoo filter: capacity, then BUCKETSIZE, MAXITERATIONS, " +
            "EXPANSION.", cf::reserve);
        cuckoo(table, "cf.add", 3, WRITE, "Adds a copy of an item (1). Creates the filter.", cf::add);
        cuckoo(table, "cf.addnx", 3, WRITE, "Adds an item unless present: 1 added, 0 present.", cf::addnx);
        cuckoo(table, "cf.insert", -4, WRITE, "[CAPACITY c] [NOCREATE] ITEMS item...: adds a copy of each (1 each, " +
            "-1 when full).", cf::insert);
        cuckoo(table, "cf.insertnx", -4, WRITE, "[CAPACITY c] [NOCREATE] ITEMS item...: adds each unless present " +
            "(1 added, 0 present, -1 when full).", cf::insertnx);
        cuckoo(table, "cf.exists", 3, READ, "1 if the item may be present.", cf::exists);
        cuckoo(table, "cf.mexists", -3, READ, "1 for each item that may be present.", cf::mexists);
        cuckoo(table, "cf.count", 3, READ, "How many copies of an item may be present.", cf::count);
        // RedisBloom: "write fast" (a write that does not grow memory)
        cuckoo(table, "cf.del", 3, List.of("write", "fast"), "Deletes one copy of an item: 1 deleted, 0 absent.",
            cf::delete);
        cuckoo(table, "cf.info", 2, READ, "Describes a cuckoo filter.", cf::info);
        cuckoo(table, "cf.debug", 2, READ, "A cuckoo filter's shape, as RedisBloom describes it.", cf::debug);
        // RedisBloom registers CF.COMPACT "readonly fast", though it moves fingerprints: its flags, as served there
        cuckoo(table, "cf.compact", 2, READ, "Moves fingerprints to older sub-filters and drops emptied ones.",
            cf::compact);
        cuckoo(table, "cf.scandump", 3, READ, "Dumps a cuckoo filter in chunks, as BF.SCANDUMP.",
            (s, a) -> cf.scandump(s, a, dump));
        table.add(Command.oneKey("cf.loadchunk", 4, WRITE, "cf", "Loads a chunk of CF.SCANDUMP (ddf's or " +
            "RedisBloom's), with the iterator it came with.", (s, a) -> cf.loadchunk(s, a, dump))
            .largeArguments(chunkBytes));
    }

    private static void bloom(final CommandTable table, final String name, final int arity,
        final List<String> flags, final String summary, final Command.Handler handler)
    {
        table.add(Command.oneKey(name, arity, flags, "bf", summary, handler));
    }

    private static void cuckoo(final CommandTable table, final String name, final int arity,
        final List<String> flags, final String summary, final Command.Handler handler)
    {
        table.add(Command.oneKey(name, arity, flags, "cf", summary, handler));
    }
}
