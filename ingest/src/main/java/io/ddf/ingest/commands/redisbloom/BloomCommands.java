package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.Operation;
import io.ddf.engine.scaling.AddResult;
import io.ddf.engine.scaling.BloomChain;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.redisbloom.BloomSemantics;
import io.ddf.ingest.redisbloom.Creation;
import io.ddf.ingest.redisbloom.ReserveOptions;
import io.ddf.ingest.redisbloom.Errors;
import io.ddf.ingest.redisbloom.InsertRequest;
import io.ddf.ingest.redisbloom.ReserveRequest;
import io.ddf.ingest.resp.ByteView;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.ReplyWriter;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterEvents;
import io.ddf.ingest.store.FilterStore;
import io.ddf.ingest.store.FilterTypes;
import io.ddf.ingest.store.KeyNames;
import io.ddf.ingest.store.ScalingRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.util.concurrent.FastThreadLocal;
import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

import static io.ddf.ingest.commands.redisbloom.RedisBloomCommands.READ;
import static io.ddf.ingest.commands.redisbloom.RedisBloomCommands.WRITE;

/**
 * The BF.* commands, each parsed once and run where its key lives ({@link FilterStore.Kind}): on a filter that grows
 * (RedisBloom's semantics, {@link BloomSemantics}, over ddf's chain or RedisBloom's layout) or on one of ddf's
 * fixed-size filters (the kinds BF.RESERVE's {@code KIND} names, and every filter under {@code serve --past-capacity
 * forget}, and every filter BF.ADD, BF.MADD or BF.INSERT makes under {@code serve --default-window}: a fifo-bloom with
 * that window of time). A missing key goes where the daemon's default says, or where the command asks (BF.RESERVE's
 * {@link ReserveRequest#scalingLayout}; its {@code WINDOW} makes a fixed-size fifo-bloom).
 *
 * <p>The items of BF.ADD, BF.MADD, BF.EXISTS and BF.MEXISTS on an existing chain take a path of their own that
 * copies and allocates nothing: each is hashed where the decoder left it and its verdict placed in the connection's
 * {@link ReplyWriter} at once. A chain is judged where its command runs, on the event loop, in both execution modes:
 * its adds are serialised by the chain, and RedisBloom's layout derives an item's bits from two hashes of its bytes,
 * which the pipeline's slots (one hash) do not carry. On a fixed-size filter each item is judged where
 * {@code serve --execution} says ({@link Session#judge}), and its reply written once its verdicts are in. A filter
 * made for a command (on first use, by BF.RESERVE or BF.INSERT) is made off the event loop while the connection waits.
 */
final class BloomCommands
{
    /** An event loop's view of an argument's bytes and its verdicts of one command (no allocation per command). */
    private static final class Scratch
    {
        final ByteView bytes = new ByteView();
        byte[] verdicts = new byte[64];
    }

    private static final byte ADDED = 1;
    private static final byte NOT_ADDED = 0;
    private static final byte FULL = 2;

    private final FilterStore store;
    private final ScalingRegistry registry;
    private final BloomSemantics semantics;
    private final Scaling scaling;
    private final boolean scaleByDefault;
    /** Whether BF.ADD, BF.MADD and BF.INSERT make a filter that grows for a missing key (no --default-window). */
    private final boolean addsGrow;
    /** The options of a fixed-size filter made on first use: serve --default-window's window, if any. */
    private final ReserveOptions madeOnFirstUse;
    private final ScalingRegistry.Layout layout;
    private final long fixedCapacity;
    private final double errorRate;
    private final Supplier<FilterBuilder> defaultFilter;
    private final Consumer<String> log;
    private final FastThreadLocal<Scratch> scratch = new FastThreadLocal<>()
    {
        @Override
        protected Scratch initialValue()
        {
            return new Scratch();
        }
    };
    /** The pipelined adds of the connection this event loop runs ({@link ChainAdds}). */
    private final FastThreadLocal<ChainAdds> adds = new FastThreadLocal<>()
    {
        @Override
        protected ChainAdds initialValue()
        {
            return new ChainAdds(registry, failure -> store.durability().refusalOf(failure));
        }
    };

    /**
     * @param store         the filters.
     * @param scaling       runs RedisBloom's semantics.
     * @param config        what a missing key gets.
     * @param defaultFilter the fixed-size filter a missing key gets under {@code --past-capacity forget}.
     * @param log           the daemon's log.
     */
    BloomCommands(final FilterStore store, final Scaling scaling, final ServerConfig config,
        final Supplier<FilterBuilder> defaultFilter, final Consumer<String> log)
    {
        this.store = store;
        this.registry = store.scaling();
        this.scaling = scaling;
        this.scaleByDefault = config.pastCapacity == ServerConfig.PastCapacity.SCALE;
        this.addsGrow = config.missingBloomKeysGrow();
        this.madeOnFirstUse = ReserveOptions.window(config.defaultWindow);
        this.layout = config.scalingLayout;
        this.fixedCapacity = config.capacityOfMissingKeys(false);
        this.errorRate = config.defaultErrorRate;
        this.semantics = new BloomSemantics(registry, config.capacityOfMissingKeys(true), config.defaultErrorRate,
            config.scalingLayout);
        this.defaultFilter = defaultFilter;
        this.log = log;
    }

    /**
     * @return whether the key's commands run on a filter that grows (a missing key: as BF.ADD would make it, the
     *         daemon's default).
     */
    private boolean grows(final String key)
    {
        final FilterStore.Kind kind = store.kind(key);
        return kind == FilterStore.Kind.NONE ? addsGrow : kind == FilterStore.Kind.SCALING;
    }

    /**
     * Declares every BF.* command, once: its arity, RedisBloom's flags, key position, summary and handler.
     *
     * @param table      the daemon's commands.
     * @param dump       the dumps of fixed-size filters.
     * @param chunkBytes the longest chunk LOADCHUNK reads.
     */
    void register(final CommandTable table, final ScanDump dump, final long chunkBytes)
    {
        bloom(table, "bf.reserve", -4, WRITE, "Creates a filter: error rate, capacity, then EXPANSION n, " +
            "NONSCALING, or KIND (scaling, redisbloom, fifo-bloom...) and a ddf kind's parameters, or WINDOW " +
            "seconds [SLICES L] (a fifo-bloom that remembers each item for a window of time).", this::reserve);
        bloom(table, "bf.add", 3, WRITE, "Adds an item; 1 if it was not seen before. Creates the filter on first " +
            "use.", this::add);
        bloom(table, "bf.madd", -3, WRITE, "Adds items; 1 for each not seen before. Creates the filter on first use.",
            this::madd);
        bloom(table, "bf.insert", -4, WRITE, "[CAPACITY c] [ERROR e] [EXPANSION x] [NOCREATE] [NONSCALING] ITEMS " +
            "item...: creates the filter unless NOCREATE, then adds each item (1 if it was not seen before).",
            this::insert);
        bloom(table, "bf.exists", 3, READ, "1 if the item may have been added.", this::exists);
        bloom(table, "bf.mexists", -3, READ, "1 for each item that may have been added.", this::mexists);
        bloom(table, "bf.info", -2, READ, "Describes a filter, or one field of it (DDF: ddf's figures of one that " +
            "grows).", this::info);
        bloom(table, "bf.card", 2, READ, "Items added that were not seen before.", this::card);
        bloom(table, "bf.debug", 2, READ, "A scaling filter's size and layers, as RedisBloom describes them.",
            this::debug);
        bloom(table, "bf.scandump", 3, READ, "Dumps a filter in chunks: iterator 0 first, then each iterator " +
            "answered, until it answers 0.", (s, a) -> scandump(s, a, dump));
        table.add(Command.oneKey("bf.loadchunk", 4, WRITE, "bf", "Loads a chunk of BF.SCANDUMP (ddf's or " +
            "RedisBloom's), with the iterator it came with.", (s, a) -> loadchunk(s, a, dump))
            .largeArguments(chunkBytes));
    }

    static void bloom(final CommandTable table, final String name, final int arity,
        final List<String> flags, final String summary, final Command.Handler handler)
    {
        table.add(Command.oneKey(name, arity, flags, "bf", summary, handler));
    }

    // ------------------------------------------------------------------------------------------------ making

    void reserve(final Session session, final ByteBuf[] args)
    {
        try
        {
            final ReserveRequest request = ReserveRequest.parse(args);
            final FilterStore.Kind kind = store.kind(request.key());
            final ScalingRegistry.Layout chosen = request.scalingLayout(scaleByDefault, layout);
            if (kind == FilterStore.Kind.SCALING || chosen != null)
            {
                // an existing key is refused as RedisBloom refuses it, whatever the request asks for
                scaling.createThenOk(session, semantics.reserve(request, chosen != null ? chosen : layout));
                return;
            }
            final FilterBuilder builder = FixedSizeReserve.builder(request);
            session.await(store.create(request.key(), () -> builder, true),
                () -> session.replies().ready(Replies.OK));
        }
        catch (final RespError e)
        {
            log.accept(FilterEvents.refused(Replies.key(args[1]), e.getMessage()));
            throw e;
        }
    }

    void insert(final Session session, final ByteBuf[] args)
    {
        final InsertRequest request = InsertRequest.parse(args);
        session.checkItems(args, request.firstItem());
        if (grows(request.key()))
        {
            final Creation creation = semantics.toInsert(request);
            if (creation != null)
            {
                scaling.createThenRetry(session, args, creation);
                return;
            }
            scaling.run(session, args, bytes -> semantics.insert(request, bytes));
            return;
        }
        // the options are checked even when the key exists (RedisBloom then ignores them), as on a chain
        final FilterBuilder builder = FixedSizeReserve.builder(request.capacityOr(fixedCapacity),
            request.errorRateOr(errorRate), request.expansion(), madeOnFirstUse);
        try (FilterStore.Lease lease = FilterTypes.bloom(store, request.key()))
        {
            if (lease == null)
            {
                if (request.noCreate())
                {
                    throw new RespError(Errors.NOT_FOUND);
                }
                session.retryAfter(store.create(request.key(), () -> builder, false), args);
                return;
            }
            session.judge(lease.filter(), Operation.STREAM, args, request.firstItem(), true);
        }
    }

    // ------------------------------------------------------------------------------------------------ items

    void add(final Session session, final ByteBuf[] args)
    {
        if (session.deferral().allowed())
        {
            session.checkItems(args, 2);
            final String key = session.key(args[1]);
            final Scratch s = scratch.get();
            final int length = args[2].readableBytes();
            if (adds.get().offer(session, key, s.bytes.of(args[2], args[2].readerIndex(), length), length))
            {
                return; // its reply comes with its group's (ChainAdds)
            }
            session.deferral().finish(); // not a chain: the adds before it first
        }
        items(session, args, true, false);
    }

    void madd(final Session session, final ByteBuf[] args)
    {
        items(session, args, true, true);
    }

    void exists(final Session session, final ByteBuf[] args)
    {
        items(session, args, false, false);
    }

    void mexists(final Session session, final ByteBuf[] args)
    {
        items(session, args, false, true);
    }

    /**
     * BF.ADD, BF.MADD, BF.EXISTS, BF.MEXISTS: on an existing chain each item is judged where it lies and its verdict
     * placed at once; on a fixed-size filter through {@link Session#judge}; a missing key gets its filter made (an
     * add) or 0 for each item (a lookup).
     */
    private void items(final Session session, final ByteBuf[] args, final boolean add, final boolean array)
    {
        session.checkItems(args, 2);
        final String key = session.key(args[1]);
        final Scratch s = scratch.get();
        int judged = -1;
        BloomChain written = null;
        try
        {
            if (registry.acquire(key) instanceof BloomChain chain)
            {
                judged = judge(chain, args, add, s);
                written = add ? chain : null;
            }
        }
        catch (final IllegalStateException cannotOpen)
        {
            throw Scaling.error(cannotOpen);
        }
        finally
        {
            registry.release();
        }
        if (judged >= 0)
        {
            reply(session.replies(), written, s, judged, array);
            return;
        }
        if (store.kind(key) == FilterStore.Kind.FIXED)
        {
            fixed(session, key, args, add, array);
            return;
        }
        if (!add)
        {
            // RedisBloom answers 0 for a missing key, and for a key of the other type
            session.replies().ready(absent(args, 2, array));
            return;
        }
        if (!addsGrow)
        {
            session.retryAfter(store.create(key, defaultFilter, false), args);
            return;
        }
        final Creation creation = semantics.toAdd(key);
        if (creation == null)
        {
            items(session, args, true, array); // another client made the chain meanwhile
            return;
        }
        scaling.createThenRetry(session, args, creation);
    }

    /** The verdicts of a chain, placed: 1 (RESP3 true) for each item not seen before (an add) or present. */
    private static void reply(final ReplyWriter replies, final BloomChain written, final Scratch s, final int judged,
        final boolean array)
    {
        if (written != null)
        {
            replies.wrote(written); // under --fsync always the verdicts leave once the chain is forced
        }
        if (!array)
        {
            if (s.verdicts[0] == FULL)
            {
                throw new RespError(Errors.FULL);
            }
            replies.bool(s.verdicts[0] == ADDED);
            return;
        }
        // RedisBloom stops at the first item a full NONSCALING chain refuses: the array ends with its error
        replies.group(judged);
        for (int i = 0; i < judged; i++)
        {
            if (s.verdicts[i] == FULL)
            {
                replies.error(Errors.FULL);
            }
            else
            {
                replies.bool(s.verdicts[i] == ADDED);
            }
        }
    }

    /** @return how many verdicts were made (all items, or up to and with the first refused). */
    private static int judge(final BloomChain chain, final ByteBuf[] args, final boolean add, final Scratch s)
    {
        final int count = args.length - 2;
        if (s.verdicts.length < count)
        {
            s.verdicts = new byte[Math.max(count, 2 * s.verdicts.length)];
        }
        for (int i = 0; i < count; i++)
        {
            final ByteBuf item = args[i + 2];
            final int length = item.readableBytes();
            final DirectBuffer view = s.bytes.of(item, item.readerIndex(), length);
            if (!add)
            {
                s.verdicts[i] = chain.contains(view, 0, length) ? ADDED : NOT_ADDED;
                continue;
            }
            final AddResult result = chain.add(view, 0, length);
            if (result == AddResult.FULL)
            {
                s.verdicts[i] = FULL;
                return i + 1;
            }
            s.verdicts[i] = result == AddResult.EXISTS ? NOT_ADDED : ADDED;
        }
        return count;
    }

    /** The items on a fixed-size filter: judged where {@code serve --execution} says. */
    private void fixed(final Session session, final String key, final ByteBuf[] args, final boolean add,
        final boolean array)
    {
        try (FilterStore.Lease lease = FilterTypes.bloom(store, key))
        {
            if (lease == null)
            {
                // its file failed to open, or it was deleted meanwhile: a lookup finds nothing, an add makes it
                if (!add)
                {
                    session.replies().ready(absent(args, 2, array));
                    return;
                }
                session.retryAfter(store.create(key, defaultFilter, false), args);
                return;
            }
            session.judge(lease.filter(), add ? Operation.STREAM : Operation.CONTAINS, args, 2, array);
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
        return Replies.array(zeros);
    }

    // ------------------------------------------------------------------------------------------------ describing

    void info(final Session session, final ByteBuf[] args)
    {
        Command.atMost(args, 3, "bf.info");
        final String key = session.key(args[1]);
        if (grows(key))
        {
            final boolean ddf = args.length == 3 && "ddf".equals(Replies.word(args[2]));
            scaling.run(session, args, ddf ? semantics::ddfInfo : semantics::info);
            return;
        }
        if (session.deferUntilJudged(args))
        {
            return;
        }
        try (FilterStore.Lease lease = FilterTypes.bloom(store, key))
        {
            if (lease == null)
            {
                throw new RespError(Errors.NOT_FOUND);
            }
            final DuplicateFilter filter = lease.filter();
            // RedisBloom: one field is an array of its value in both protocols; every field a map in RESP3
            session.replies().ready(args.length == 3 ?
                Replies.array(List.of(Replies.value(BloomInfo.field(filter,
                    args[2].toString(StandardCharsets.UTF_8))))) : Replies.fields(BloomInfo.fields(filter)));
        }
    }

    void card(final Session session, final ByteBuf[] args)
    {
        final String key = session.key(args[1]);
        if (grows(key))
        {
            scaling.run(session, args, semantics::card);
            return;
        }
        if (session.deferUntilJudged(args))
        {
            return;
        }
        try (FilterStore.Lease lease = FilterTypes.bloom(store, key))
        {
            session.replies().ready(lease == null ? Replies.ZERO :
                new IntegerRedisMessage(lease.filter().elements() - lease.filter().duplicates()));
        }
    }

    /** BF.DEBUG: a chain's layers; a fixed-size filter has none of RedisBloom's (BF.INFO describes it). */
    void debug(final Session session, final ByteBuf[] args)
    {
        final String key = session.key(args[1]);
        if (store.kind(key) == FilterStore.Kind.FIXED)
        {
            throw new RespError("ERR " + KeyNames.display(key) + " is a fixed-size ddf filter: BF.INFO describes it");
        }
        scaling.run(session, args, semantics::debug);
    }

    void scandump(final Session session, final ByteBuf[] args, final ScanDump dump)
    {
        if (grows(session.key(args[1])))
        {
            scaling.run(session, args, semantics::scandump);
            return;
        }
        dump.scandump(session, args, false);
    }

    void loadchunk(final Session session, final ByteBuf[] args, final ScanDump dump)
    {
        if (dump.loads(session.key(args[1]), args[3]))
        {
            dump.loadchunk(session, args, false);
            return;
        }
        scaling.loadchunk(session, args, semantics::toLoad, semantics::loadchunk);
    }
}
