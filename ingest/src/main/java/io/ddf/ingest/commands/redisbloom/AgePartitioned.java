package io.ddf.ingest.commands.redisbloom;

import static io.ddf.ingest.commands.redisbloom.RedisBloomCommands.READ;
import static io.ddf.ingest.commands.redisbloom.RedisBloomCommands.WRITE;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.Operation;
import io.ddf.engine.TimeWindow;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.redisbloom.ApbfReserveRequest;
import io.ddf.ingest.redisbloom.ReserveOptions;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterEvents;
import io.ddf.ingest.store.FilterStore;
import io.ddf.ingest.store.FilterTypes;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import java.util.AbstractMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The commands of RedisBloom's age-partitioned Bloom filter proposal (pull request 291, docs/APBF_Commands.md; never
 * merged), for its users, on ddf's fifo-bloom: {@code APBF.RESERVE} makes one ({@link ApbfReserveRequest}: TIME a
 * window of time, COUNT a count window), {@code APBF.ADD} adds items (1 for each not seen before: one value for one
 * item, an array for several, as the proposal documents), {@code APBF.INSERT} adds items and answers OK (the
 * proposal's first module), {@code APBF.EXISTS} answers an array of 1 or 0, {@code APBF.INFO} the proposal's fields
 * with the fifo-bloom's figures. They work on any fifo-bloom key, and every BF.* command works on the keys they make;
 * any other key is refused with WRONGTYPE, a missing one with the proposal's "APBF: key does not exist" (its module
 * makes no filter on first use: there is no default window).
 */
final class AgePartitioned
{
    private final FilterStore store;
    private final Consumer<String> log;

    /**
     * @param store the filters.
     * @param log   the daemon's log.
     */
    AgePartitioned(final FilterStore store, final Consumer<String> log)
    {
        this.store = store;
        this.log = log;
    }

    /**
     * Declares RedisBloom's age-partitioned proposal's commands (pull request 291, never merged), on ddf's fifo-bloom:
     * its module's flags, and APBF.INSERT, the name its first module gave APBF.ADD.
     *
     * @param table the daemon's commands.
     */
    void register(final CommandTable table)
    {
        BloomCommands.bloom(table, "apbf.reserve", -4, WRITE, "Creates an age-partitioned filter: [COUNT|TIME] error (1-5: " +
            "10^-error) capacity [seconds]: ddf's fifo-bloom, TIME with a window of time (BF.RESERVE ... WINDOW).",
            this::reserve);
        BloomCommands.bloom(table, "apbf.add", -3, WRITE, "Adds items to an age-partitioned filter: 1 for each not seen " +
            "before (one value for one item).", this::add);
        BloomCommands.bloom(table, "apbf.insert", -3, WRITE, "Adds items to an age-partitioned filter; OK.", this::insert);
        BloomCommands.bloom(table, "apbf.exists", -3, READ, "An array: 1 for each item that may have been added within the " +
            "filter's window.", this::exists);
        BloomCommands.bloom(table, "apbf.info", 2, READ, "Describes an age-partitioned filter as the proposal does.", this::info);
    }

    void reserve(final Session session, final ByteBuf[] args)
    {
        try
        {
            final ApbfReserveRequest request = ApbfReserveRequest.parse(args);
            if (store.kind(request.key()) != FilterStore.Kind.NONE)
            {
                throw new RespError(ApbfReserveRequest.EXISTS);
            }
            final ReserveOptions options = new ReserveOptions(FilterKind.FIFO_BLOOM.cliName(), null, false, List.of(),
                request.window(), null);
            final io.ddf.engine.FilterBuilder builder = FixedSizeReserve.builder(request.capacity(),
                request.errorRate(), null, options);
            session.await(store.create(request.key(), () -> builder, true),
                () -> session.replies().ready(Replies.OK));
        }
        catch (final RespError e)
        {
            log.accept(FilterEvents.refused(Replies.key(args[1]), e.getMessage()));
            throw e;
        }
    }

    /** APBF.ADD: 1 for each item not seen before, one value for one item, an array for several. */
    void add(final Session session, final ByteBuf[] args)
    {
        session.checkItems(args, 2);
        try (FilterStore.Lease lease = lease(session.key(args[1])))
        {
            session.judge(lease.filter(), Operation.STREAM, args, 2, args.length > 3);
        }
    }

    /**
     * APBF.INSERT: adds each item, OK. Its items are judged here, on the event loop, once every element this
     * connection sent before is judged (so that a pipelined BF.ADD of the same item is answered first), and the OK
     * leaves once they are durable as {@code --fsync} says.
     */
    void insert(final Session session, final ByteBuf[] args)
    {
        session.checkItems(args, 2);
        final String key = session.key(args[1]);
        try (FilterStore.Lease lease = lease(key))
        {
            if (session.deferUntilJudged(args))
            {
                return;
            }
            final DuplicateFilter filter = lease.filter();
            for (int i = 2; i < args.length; i++)
            {
                final ByteBuf item = args[i];
                if (item.hasArray())
                {
                    filter.stream(item.array(), item.arrayOffset() + item.readerIndex(), item.readableBytes());
                }
                else
                {
                    final byte[] bytes = ByteBufUtil.getBytes(item);
                    filter.stream(bytes, 0, bytes.length);
                }
            }
            session.replies().wrote(filter);
            session.replies().ready(Replies.OK);
        }
    }

    /** APBF.EXISTS: an array of 1 (the item may have been added within the window) or 0, as the proposal answers. */
    void exists(final Session session, final ByteBuf[] args)
    {
        session.checkItems(args, 2);
        try (FilterStore.Lease lease = lease(session.key(args[1])))
        {
            session.judge(lease.filter(), Operation.CONTAINS, args, 2, true);
        }
    }

    /**
     * APBF.INFO: the proposal's fields with the fifo-bloom's figures: Type (Count or Time), Size (the table's bytes),
     * Capacity, Error rate (the precision: 3 for 0.001), Inserts count (the items streamed), Hash functions count,
     * Periods count (the generations), Slices count (a window's slices, else the generations), Time Span (seconds, 0
     * for a count filter).
     */
    void info(final Session session, final ByteBuf[] args)
    {
        if (session.deferUntilJudged(args))
        {
            return;
        }
        try (FilterStore.Lease lease = lease(session.key(args[1])))
        {
            final DuplicateFilter filter = lease.filter();
            final FilterParameters p = filter.parameters();
            final Optional<TimeWindow> window = filter.timeWindow();
            final long generations = p.get("generations");
            session.replies().ready(Replies.fields(List.of(
                entry("Type", "Age Partitioned Bloom Filter - " + (window.isPresent() ? "Time" : "Count")),
                entry("Size", p.tableBytes()),
                entry("Capacity", p.get("capacity")),
                entry("Error rate", Math.round(-Math.log10(p.getDouble("target-fpr")))),
                entry("Inserts count", filter.elements()),
                entry("Hash functions count", p.get("hash-functions")),
                entry("Periods count", generations),
                entry("Slices count", window.map(w -> (long)w.slices()).orElse(generations)),
                entry("Time Span", window.map(w -> w.window().toSeconds()).orElse(0L)))));
        }
    }

    /** @return a lease on the key's fifo-bloom; the proposal's error for a missing key, WRONGTYPE for another. */
    private FilterStore.Lease lease(final String key)
    {
        final FilterStore.Lease lease = FilterTypes.bloom(store, key);
        if (lease == null)
        {
            if (store.kind(key) != FilterStore.Kind.NONE)
            {
                throw new RespError(RespError.WRONGTYPE); // a Bloom filter that grows: no window, no generations
            }
            throw new RespError(ApbfReserveRequest.MISSING);
        }
        if (lease.filter().parameters().kind() != FilterKind.FIFO_BLOOM)
        {
            lease.close();
            throw new RespError(RespError.WRONGTYPE);
        }
        return lease;
    }

    private static Map.Entry<String, Object> entry(final String name, final Object value)
    {
        return new AbstractMap.SimpleEntry<>(name, value);
    }
}
