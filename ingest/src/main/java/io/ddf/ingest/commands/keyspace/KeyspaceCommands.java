package io.ddf.ingest.commands.keyspace;

import io.ddf.engine.DuplicateFilter;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.glob.Glob;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterStore;
import io.ddf.ingest.store.FilterStoreException;
import io.ddf.ingest.store.FilterTypes;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The Redis commands over the whole keyspace: KEYS, SCAN, FLUSHALL (and FLUSHDB, the same: ddf has one database),
 * and MEMORY USAGE and HELP. A key is a filter, or a file of the data directory that could not be opened (as EXISTS
 * and TYPE count it).
 */
public final class KeyspaceCommands
{
    private static final String GENERIC = "generic";
    /** MEMORY HELP's lines, as Redis lays them out: the subcommands ddf serves, each with what it answers. */
    private static final List<String> MEMORY_HELP = List.of(
        "MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "USAGE <key> [SAMPLES <count>]",
        "    The bytes of the key's filter file, all of it mapped (SAMPLES is accepted and ignored).",
        "HELP",
        "    Prints this help.");

    private final java.util.function.Consumer<DuplicateFilter> drain;
    private final FilterStore store;

    /**
     * @param store the filters.
     * @param drain returns once every element published so far for a filter has been judged.
     */
    public KeyspaceCommands(final FilterStore store, final java.util.function.Consumer<DuplicateFilter> drain)
    {
        this.drain = drain;
        this.store = store;
    }

    /** @param table gets KEYS, SCAN, FLUSHALL, FLUSHDB and MEMORY. */
    public void register(final CommandTable table)
    {
        table.add(Command.keyless("keys", 2, List.of("readonly"), GENERIC,
            "Every key matching a glob pattern (*, ?, \\\\x).", this::keys).also("@dangerous"));
        table.add(Command.keyless("scan", -2, List.of("readonly"), GENERIC,
            "Iterates the keys: cursor [MATCH pattern] [COUNT n] [TYPE type].", this::scan));
        table.add(Command.keyless("flushall", -1, List.of("write"), "server",
            "Deletes every filter and its file (off the event loop; ASYNC and SYNC both reply once done).",
            (s, a) -> flushAll(s, a, "flushall")).also("@keyspace", "@dangerous"));
        // one database (SELECT 0 only), so emptying it is emptying them all
        table.add(Command.keyless("flushdb", -1, List.of("write"), "server",
            "Deletes every filter and its file, as FLUSHALL (ddf has one database).",
            (s, a) -> flushAll(s, a, "flushdb")).also("@keyspace", "@dangerous"));
        table.add(Command.keyless("memory", -2, List.of("readonly"), "server",
            "USAGE key: the bytes of the filter's file, all of it mapped.", this::memory).subcommands(
                new Command.Subcommand("memory|usage", List.of("@read", "@slow"), 2, true),
                Command.Subcommand.of("memory|help", "@slow")));
    }

    private void keys(final Session session, final ByteBuf[] args)
    {
        final String pattern = Replies.key(args[1]);
        final List<RedisMessage> keys = new ArrayList<>();
        for (final String key : store.keys())
        {
            if (Glob.matches(pattern, key))
            {
                keys.add(Replies.keyBulk(key));
            }
        }
        session.replies().ready(new ArrayRedisMessage(keys));
    }

    private void scan(final Session session, final ByteBuf[] args)
    {
        final long cursor;
        try
        {
            cursor = Long.parseUnsignedLong(Replies.key(args[1]));
        }
        catch (final NumberFormatException e)
        {
            throw new RespError("ERR invalid cursor");
        }
        String pattern = null;
        String type = null;
        int count = ScanCursor.DEFAULT_COUNT;
        for (int i = 2; i < args.length; i += 2)
        {
            if (i + 1 >= args.length)
            {
                throw new RespError("ERR syntax error");
            }
            switch (Replies.word(args[i]))
            {
                case "match" -> pattern = Replies.key(args[i + 1]);
                case "count" ->
                {
                    final long n = Replies.integer(args[i + 1], "ERR value is not an integer or out of range");
                    if (n < 1)
                    {
                        throw new RespError("ERR syntax error");
                    }
                    count = (int)Math.min(n, Integer.MAX_VALUE);
                }
                case "type" -> type = Replies.word(args[i + 1]);
                default -> throw new RespError("ERR syntax error");
            }
        }
        final ScanCursor.Page page = ScanCursor.page(store.keys(), cursor, count);
        final List<RedisMessage> keys = new ArrayList<>();
        for (final String key : page.keys())
        {
            if ((pattern == null || Glob.matches(pattern, key)) &&
                (type == null || FilterTypes.type(store, key).equalsIgnoreCase(type)))
            {
                keys.add(Replies.keyBulk(key));
            }
        }
        session.replies().ready(new ArrayRedisMessage(List.of(Replies.bulk(Long.toUnsignedString(page.next())),
            new ArrayRedisMessage(keys))));
    }

    /**
     * FLUSHALL and FLUSHDB [ASYNC|SYNC]: DEL of every key, off the event loop; the reply (OK) once every one is gone.
     *
     * @param name the command's name, for its arity error.
     */
    private void flushAll(final Session session, final ByteBuf[] args, final String name)
    {
        Command.atMost(args, 2, name);
        if (args.length == 2)
        {
            final String mode = Replies.word(args[1]);
            if (!mode.equals("async") && !mode.equals("sync"))
            {
                throw new RespError("ERR syntax error");
            }
        }
        final List<String> keys = new ArrayList<>(store.keys());
        // a thread of its own: deletion drains the pipeline, which must not block an event loop
        final CompletableFuture<Void> work = CompletableFuture.runAsync(() -> deleteAll(keys), task ->
        {
            final Thread thread = new Thread(task, "ddf-flushall");
            thread.setDaemon(true);
            thread.start();
        });
        session.await(work, () -> session.replies().ready(Replies.OK));
    }

    /** DEL of each key; one that fails does not keep the others: the first failure is the reply. */
    private void deleteAll(final List<String> keys)
    {
        FilterStoreException first = null;
        for (final String key : keys)
        {
            try
            {
                store.delete(key, drain);
            }
            catch (final FilterStoreException e)
            {
                first = first == null ? e : first;
            }
        }
        if (first != null)
        {
            throw first;
        }
    }

    /** MEMORY USAGE key [SAMPLES n] and MEMORY HELP; the others are refused, pointing to MEMORY HELP. */
    private void memory(final Session session, final ByteBuf[] args)
    {
        final String sub = Replies.word(args[1]);
        if (sub.equals("help") && args.length == 2)
        {
            session.replies().ready(Replies.statuses(MEMORY_HELP));
            return;
        }
        if (!sub.equals("usage"))
        {
            throw new RespError("ERR unknown subcommand '" + sub + "'. Try MEMORY HELP.");
        }
        if (args.length != 3 && !(args.length == 5 && Replies.word(args[3]).equals("samples")))
        {
            throw Command.wrongArity("memory|usage");
        }
        final String key = Replies.key(args[2]);
        if (store.kind(key) == FilterStore.Kind.SCALING)
        {
            final long bytes = store.scaling().bytes(key);
            session.replies().ready(bytes < 0 ? Replies.nil() : new IntegerRedisMessage(bytes));
            return;
        }
        try (FilterStore.Lease lease = store.acquire(key))
        {
            if (lease == null)
            {
                session.replies().ready(Replies.nil());
                return;
            }
            session.replies().ready(new IntegerRedisMessage(Files.size(lease.filter().path())));
        }
        catch (final IOException e)
        {
            throw new RespError("ERR cannot read the size of the filter's file: " + OneLine.of(e));
        }
    }
}
