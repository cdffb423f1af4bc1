package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.redisbloom.DumpChunks;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.store.FilterStore;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * RedisBloom's surface: the BF.* and CF.* families, built and registered together. Each family declares each of its
 * commands once, beside its handler ({@link BloomCommands#register}, {@link CuckooCommands#register}): arity, flags
 * (RedisBloom 2.4's: {@link #WRITE} or {@link #READ}, so the ACL categories follow), key position, summary and
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
    static final List<String> WRITE = List.of("write", "denyoom");
    static final List<String> READ = List.of("readonly", "fast");

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
    private final AgePartitioned apbf;

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
        this.apbf = new AgePartitioned(store, log);
    }

    /** @param table gets every BF.* and CF.* command, each declared once by its family. */
    public void register(final CommandTable table)
    {
        bf.register(table, dump, chunkBytes);
        cf.register(table, dump, chunkBytes);
        apbf.register(table);
    }
}
