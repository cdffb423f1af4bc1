package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.scaling.AddResult;
import io.ddf.engine.scaling.BloomChain;
import io.ddf.engine.scaling.ScalingFilter;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.redisbloom.BloomSemantics;
import io.ddf.ingest.redisbloom.CuckooSemantics;
import io.ddf.ingest.redisbloom.Reply;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.ReplyWriter;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterStore;
import io.ddf.ingest.store.FilterStoreException;
import io.ddf.ingest.store.ScalingRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.netty.util.concurrent.FastThreadLocal;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * BF.* and CF.* on the filters that grow, with RedisBloom's semantics: the command's arguments go to
 * {@link BloomSemantics} or {@link CuckooSemantics} (RedisBloom's arguments, bounds, error texts and replies, as
 * values), and their answer becomes the command's reply here. When the answer is a {@link Reply.Create} the filter
 * is made on the store's creation thread ({@link FilterStore#create(Reply.Create)}) while the connection waits
 * ({@link Session#await}), then the reply is given or the command runs again ({@link Session#retryAfter}).
 *
 * <p>The items of BF.ADD, BF.MADD, BF.EXISTS and BF.MEXISTS on an existing chain take a path of their own that copies
 * and allocates nothing: each is hashed where the decoder left it, and its verdict written into the connection's
 * {@link ReplyWriter} as it comes. A chain is judged where its command runs, on the event loop, in both execution
 * modes: its adds are serialised by the chain, and RedisBloom's layout derives an item's bits from two hashes of its
 * bytes, which the pipeline's slots (one hash) do not carry. Each reply is placed once the item is in the mapping, in
 * the connection's order, as every reply is.
 */
final class ScalingCommands
{
    /** An event loop's view of an argument's bytes and its verdicts of one command (no allocation per command). */
    private static final class Scratch
    {
        final UnsafeBuffer view = new UnsafeBuffer(0, 0);
        byte[] verdicts = new byte[64];
        byte[] copy = new byte[64];
    }

    private static final byte ADDED = 1;
    private static final byte NOT_ADDED = 0;
    private static final byte FULL = 2;
    private static final String FULL_TEXT = "ERR non scaling filter is full";

    private final FilterStore store;
    private final ScalingRegistry registry;
    private final BloomSemantics bloom;
    private final CuckooSemantics cuckoo;
    private final FastThreadLocal<Scratch> scratch = new FastThreadLocal<>()
    {
        @Override
        protected Scratch initialValue()
        {
            return new Scratch();
        }
    };

    /**
     * @param store  the filters.
     * @param config the item limit and the sizes of filters made on first use.
     */
    ScalingCommands(final FilterStore store, final ServerConfig config)
    {
        this.store = store;
        this.registry = store.scaling();
        this.bloom = new BloomSemantics(registry, config.capacityOfMissingKeys(true), config.defaultErrorRate,
            config.scalingLayout);
        this.cuckoo = new CuckooSemantics(registry);
    }

    // ------------------------------------------------------------------------------------------------ BF.*

    void add(final Session session, final ByteBuf[] args)
    {
        verdicts(session, args, true, false);
    }

    void madd(final Session session, final ByteBuf[] args)
    {
        verdicts(session, args, true, true);
    }

    void exists(final Session session, final ByteBuf[] args)
    {
        verdicts(session, args, false, false);
    }

    void mexists(final Session session, final ByteBuf[] args)
    {
        verdicts(session, args, false, true);
    }

    void reserve(final Session session, final ByteBuf[] args)
    {
        run(session, args, bloom::reserve);
    }

    void insert(final Session session, final ByteBuf[] args)
    {
        session.checkItems(args, 2);
        run(session, args, bloom::insert);
    }

    void info(final Session session, final ByteBuf[] args)
    {
        final boolean ddf = args.length == 3 && "ddf".equals(Replies.word(args[2]));
        run(session, args, ddf ? bloom::ddfInfo : bloom::info);
    }

    void card(final Session session, final ByteBuf[] args)
    {
        run(session, args, bloom::card);
    }

    void debug(final Session session, final ByteBuf[] args)
    {
        run(session, args, bloom::debug);
    }

    void scandump(final Session session, final ByteBuf[] args)
    {
        run(session, args, bloom::scandump);
    }

    void loadchunk(final Session session, final ByteBuf[] args)
    {
        run(session, args, bloom::loadchunk);
    }

    // ------------------------------------------------------------------------------------------------ CF.*

    /** @return the handler of a CF.* command: RedisBloom's cuckoo semantics, {@code semantics} of them. */
    Command.Handler cuckoo(final Function<CuckooSemantics, Function<byte[][], Reply>> semantics)
    {
        final Function<byte[][], Reply> command = semantics.apply(cuckoo);
        return (session, args) -> run(session, args, command);
    }

    /**
     * Every CF.* command that takes items (ADD, ADDNX, INSERT, INSERTNX, EXISTS, MEXISTS, COUNT, DEL): their items,
     * then the semantics. CF.INSERT's options come before
     * ITEMS, so it is checked from its first argument after the key, as BF.INSERT is: an option longer than the item
     * limit is no option RedisBloom takes.
     */
    Command.Handler cuckooItems(final Function<CuckooSemantics, Function<byte[][], Reply>> semantics, final int first)
    {
        final Function<byte[][], Reply> command = semantics.apply(cuckoo);
        return (session, args) ->
        {
            session.checkItems(args, first);
            run(session, args, command);
        };
    }

    // ------------------------------------------------------------------------------------------------ the path

    /**
     * BF.ADD, BF.MADD, BF.EXISTS, BF.MEXISTS: on an existing chain each item is judged where it lies and its verdict
     * written at once; a missing key, or one of another type, goes to RedisBloom's semantics (which make the chain,
     * or answer 0s, or WRONGTYPE).
     */
    private void verdicts(final Session session, final ByteBuf[] args, final boolean add, final boolean array)
    {
        session.checkItems(args, 2);
        final Scratch s = scratch.get();
        int judged = -1;
        BloomChain written = null;
        try
        {
            if (registry.acquire(session.key(args[1])) instanceof BloomChain chain)
            {
                judged = judge(chain, args, add, s);
                written = add ? chain : null;
            }
        }
        catch (final IllegalStateException cannotOpen)
        {
            throw error(cannotOpen);
        }
        finally
        {
            registry.release();
        }
        if (judged < 0)
        {
            run(session, args, add ? bloom::add : bloom::exists);
            return;
        }
        final ReplyWriter replies = session.replies();
        if (written != null)
        {
            replies.wrote(written); // under --fsync always the verdicts leave once the chain is forced
        }
        if (!array)
        {
            if (s.verdicts[0] == FULL)
            {
                throw new RespError(FULL_TEXT);
            }
            replies.ready(Replies.bool(s.verdicts[0] == ADDED));
            return;
        }
        // RedisBloom stops at the first item a full NONSCALING chain refuses: the array ends with its error
        replies.group(judged);
        for (int i = 0; i < judged; i++)
        {
            if (s.verdicts[i] == FULL)
            {
                replies.error(FULL_TEXT);
            }
            else
            {
                replies.ready(Replies.bool(s.verdicts[i] == ADDED));
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
            wrap(s, item, length);
            if (!add)
            {
                s.verdicts[i] = chain.contains(s.view, 0, length) ? ADDED : NOT_ADDED;
                continue;
            }
            final AddResult result = chain.add(s.view, 0, length);
            if (result == AddResult.FULL)
            {
                s.verdicts[i] = FULL;
                return i + 1;
            }
            s.verdicts[i] = result == AddResult.EXISTS ? NOT_ADDED : ADDED;
        }
        return count;
    }

    /** Points the scratch view at an item: the heap array, the direct memory, or a copy (a composite buffer). */
    private static void wrap(final Scratch s, final ByteBuf item, final int length)
    {
        if (item.hasArray())
        {
            s.view.wrap(item.array(), item.arrayOffset() + item.readerIndex(), length);
        }
        else if (item.hasMemoryAddress())
        {
            s.view.wrap(item.memoryAddress() + item.readerIndex(), length);
        }
        else
        {
            if (s.copy.length < length)
            {
                s.copy = new byte[Math.max(length, 2 * s.copy.length)];
            }
            item.getBytes(item.readerIndex(), s.copy, 0, length);
            s.view.wrap(s.copy, 0, length);
        }
    }

    /**
     * Runs a command of RedisBloom's semantics: its reply takes its place; a filter it needs is made first.
     *
     * @param session the connection.
     * @param args    the command.
     * @param command the semantics.
     */
    private void run(final Session session, final ByteBuf[] args, final Function<byte[][], Reply> command)
    {
        final String key = args.length > 1 ? session.key(args[1]) : null;
        final long before = changes(key);
        final Reply reply;
        try
        {
            reply = command.apply(bytes(args));
        }
        catch (final IllegalStateException | IllegalArgumentException e)
        {
            throw error(e);
        }
        if (changes(key) != before)
        {
            wrote(session, key); // the reply (even an error after a partial insert) acknowledges a change
        }
        if (reply instanceof Reply.Create create)
        {
            if (create.reply() == null)
            {
                session.retryAfter(create(create), args);
            }
            else
            {
                session.await(create(create), () -> session.replies().ready(message(create.reply())));
            }
            return;
        }
        if (reply instanceof Reply.Error refusal)
        {
            throw new RespError(refusal.text());
        }
        session.replies().ready(message(reply));
    }

    /**
     * Makes the filter on the store's creation thread; what its maker throws becomes RedisBloom's words for it.
     *
     * @param creation what RedisBloom's semantics asked for.
     * @return completes once the filter is in the store, or exceptionally with the error to reply with.
     */
    private CompletableFuture<Void> create(final Reply.Create creation)
    {
        return store.createScaling(creation.key(), creation.maker(), creation.exclusive()).handle((done, failure) ->
        {
            if (failure == null)
            {
                return done;
            }
            final Throwable cause = failure instanceof CompletionException && failure.getCause() != null ?
                failure.getCause() : failure;
            if (cause instanceof FilterStoreException stored)
            {
                throw stored;
            }
            final Reply refusal = cause instanceof RuntimeException e ? creation.refused().apply(e) : null;
            throw new RespError(refusal instanceof Reply.Error error ? error.text() : "ERR " + OneLine.of(cause));
        });
    }

    /** @return the changes counted on the key's filter that grows; -1 when it has none. */
    private long changes(final String key)
    {
        if (key == null)
        {
            return -1;
        }
        try
        {
            final ScalingFilter filter = registry.acquire(key);
            return filter == null ? -1 : filter.changes();
        }
        catch (final IllegalStateException closedOrFailed)
        {
            return -1;
        }
        finally
        {
            registry.release();
        }
    }

    /** The replies from now on acknowledge a change of the key's filter: under --fsync always, they wait for it. */
    private void wrote(final Session session, final String key)
    {
        try
        {
            final ScalingFilter filter = registry.acquire(key);
            if (filter != null)
            {
                session.replies().wrote(filter);
            }
        }
        catch (final IllegalStateException closedOrFailed)
        {
            // deleted meanwhile: nothing left to sync
        }
        finally
        {
            registry.release();
        }
    }

    private static RespError error(final RuntimeException e)
    {
        final String text = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new RespError(text.startsWith("ERR") ? text : "ERR " + text);
    }

    private static byte[][] bytes(final ByteBuf[] args)
    {
        final byte[][] bytes = new byte[args.length][];
        for (int i = 0; i < args.length; i++)
        {
            bytes[i] = new byte[args[i].readableBytes()];
            args[i].getBytes(args[i].readerIndex(), bytes[i]);
        }
        return bytes;
    }

    /**
     * @param reply an answer of RedisBloom's semantics.
     * @return it as a reply the {@link ReplyWriter} writes in the connection's protocol: yes/no a RESP3 boolean, a
     *         null RESP3's, RedisBloom's INFO a RESP3 map of simple-string names (as RedisBloom 2.6+ answers them).
     */
    static RedisMessage message(final Reply reply)
    {
        if (reply instanceof Reply.Int value)
        {
            return Replies.integer(value.value());
        }
        if (reply instanceof Reply.Bool yes)
        {
            return Replies.bool(yes.value());
        }
        if (reply instanceof Reply.Simple simple)
        {
            return simple == Reply.OK ? Replies.OK : new SimpleStringRedisMessage(simple.text());
        }
        if (reply instanceof Reply.Error error)
        {
            return new ErrorRedisMessage(error.text());
        }
        if (reply instanceof Reply.Bulk bulk)
        {
            return new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(bulk.bytes()));
        }
        if (reply instanceof Reply.Array array)
        {
            final List<RedisMessage> items = new ArrayList<>(array.items().size());
            for (final Reply item : array.items())
            {
                items.add(message(item));
            }
            return array.map() ? Replies.map(items) : new ArrayRedisMessage(items);
        }
        return Replies.nil();
    }
}
