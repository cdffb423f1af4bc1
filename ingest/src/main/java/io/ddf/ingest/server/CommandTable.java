package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every command the daemon knows, one {@link Command} each: dispatch looks the name up here, checks the client
 * may run it and its arity, and runs its handler; {@code COMMAND} answers from the same entries, so the list a
 * client sees is the list served. Built once per daemon, then read by every event loop (never changed after).
 *
 * <p>To add a command: write its handler where its family lives ({@link FilterCommands} for BF.*,
 * {@link ServerCommands} for the Redis administration commands, or a new class with a {@code register} method
 * like theirs) and register one entry there; nothing else lists commands.
 */
final class CommandTable
{
    private static final SimpleStringRedisMessage QUEUED = new SimpleStringRedisMessage("QUEUED");

    private final Map<String, Command> commands = new LinkedHashMap<>();
    /** Made once every command is registered ({@link #of}). */
    private CommandStats stats;
    /** The same commands, found by the bytes of their name; rebuilt by {@link #add}. */
    private CommandIndex index = new CommandIndex(List.of());

    /**
     * @param server the daemon.
     * @return the table of every command the daemon serves.
     */
    static CommandTable of(final DdfServer server)
    {
        final CommandTable table = new CommandTable();
        new FilterCommands(server).register(table);
        new InsertCommand(server).register(table);
        new CuckooCommands(server).register(table);
        new ScanDump(server).register(table);
        new ServerCommands(server).register(table);
        new KeyspaceCommands(server).register(table);
        new TransactionCommands().register(table);
        table.add(Command.keyless("command", -1, List.of("loading", "stale"), "server",
            "Get details about the commands served (COUNT, INFO, DOCS, LIST).", table::command));
        table.stats = new CommandStats(table.commands.keySet());
        return table;
    }

    /**
     * @param command a command.
     * @throws IllegalStateException when its name is taken.
     */
    void add(final Command command)
    {
        if (commands.putIfAbsent(command.name(), command) != null)
        {
            throw new IllegalStateException("command " + command.name() + " registered twice");
        }
        index = new CommandIndex(commands.values());
    }

    /**
     * @param name lower case.
     * @return its entry, or null.
     */
    Command lookup(final String name)
    {
        return commands.get(name);
    }

    /** @return the per-command counters (INFO commandstats, the metrics endpoint). */
    CommandStats stats()
    {
        return stats;
    }

    /** @return every entry, in registration order. */
    Collection<Command> all()
    {
        return Collections.unmodifiableCollection(commands.values());
    }

    /**
     * Runs one command: its reply (or error) is queued on the session, in order.
     *
     * @param session the connection.
     * @param args    the name and its arguments.
     */
    void execute(final Session session, final ByteBuf[] args)
    {
        final Command command = index.find(args[0]);
        if (!session.authenticated() && (command == null || !command.flags().contains(Command.NO_AUTH)))
        {
            if (session.transaction().active())
            {
                session.transaction().refuse();
            }
            session.replies().ready(Replies.NOAUTH);
            return;
        }
        try
        {
            if (command == null)
            {
                throw unknown(args);
            }
            if (!command.arityFits(args))
            {
                stats.rejected(stats.get(command.name()));
                throw Command.wrongArity(command.name());
            }
            // one clock read serves the client's idle time and the command's timing (commandstats)
            final long start = System.nanoTime();
            session.client().ran(command.name(), start);
            if (session.transaction().active() && !Transaction.NOT_QUEUED.contains(command.name()))
            {
                session.transaction().queue(args);
                session.replies().ready(QUEUED);
                return;
            }
            run(command, session, args, start);
        }
        catch (final RespError | FilterStoreException e)
        {
            if (session.transaction().active())
            {
                // Redis's way: a command refused while queuing aborts the whole transaction at EXEC
                session.transaction().refuse();
            }
            session.replies().error(Session.message(e));
        }
    }

    /** Runs a command's handler, timing it from {@code start} for {@link CommandStats}. */
    private void run(final Command command, final Session session, final ByteBuf[] args, final long start)
    {
        boolean failed = true;
        try
        {
            command.handler().execute(session, args);
            failed = false;
        }
        finally
        {
            stats.ran(stats.get(command.name()), System.nanoTime() - start, failed);
        }
    }

    private static RespError unknown(final ByteBuf[] args)
    {
        final StringBuilder message = new StringBuilder("ERR unknown command '")
            .append(printable(args[0])).append("', with args beginning with: ");
        for (int i = 1; i < args.length && i < 4; i++)
        {
            message.append('\'').append(printable(args[i])).append("' ");
        }
        return new RespError(message.toString());
    }

    private static String printable(final ByteBuf arg)
    {
        final String text = arg.toString(StandardCharsets.UTF_8);
        final String shortened = text.length() > 128 ? text.substring(0, 128) : text;
        return shortened.replaceAll("[\\p{Cntrl}]", "?");
    }

    /** COMMAND, COMMAND COUNT, COMMAND INFO name..., COMMAND DOCS [name...], COMMAND LIST. */
    private void command(final Session session, final ByteBuf[] args)
    {
        final String sub = args.length > 1 ? Replies.word(args[1]) : "";
        final List<RedisMessage> reply = new ArrayList<>();
        switch (sub)
        {
            case "" -> commands.values().forEach(c -> reply.add(info(c)));
            case "count" ->
            {
                Command.atMost(args, 2, "command|count");
                session.replies().ready(Replies.integer(commands.size()));
                return;
            }
            case "info" ->
            {
                for (int i = 2; i < args.length; i++)
                {
                    final Command c = commands.get(Replies.word(args[i]));
                    reply.add(c == null ? Replies.nilArray(session) : info(c));
                }
            }
            case "docs" ->
            {
                if (args.length == 2)
                {
                    commands.values().forEach(c -> docs(session, c, reply));
                }
                for (int i = 2; i < args.length; i++)
                {
                    final Command c = commands.get(Replies.word(args[i]));
                    if (c != null)
                    {
                        docs(session, c, reply);
                    }
                }
                // Redis 7: a map of name to documentation in RESP3, the same as a flat array in RESP2
                session.replies().ready(Replies.map(session, reply));
                return;
            }
            case "list" -> commands.keySet().forEach(n -> reply.add(Replies.bulk(n)));
            default -> throw new RespError("ERR unknown subcommand '" + sub + "'. Try COMMAND HELP.");
        }
        session.replies().ready(new ArrayRedisMessage(reply));
    }

    /**
     * Redis 7's COMMAND INFO shape: name, arity, flags, first key, last key, step, ACL categories, tips, key
     * specifications, subcommands.
     */
    private static RedisMessage info(final Command c)
    {
        return new ArrayRedisMessage(List.of(Replies.bulk(c.name()), Replies.integer(c.arity()),
            Replies.statuses(c.flags()), Replies.integer(c.firstKey()), Replies.integer(c.lastKey()),
            Replies.integer(c.step()), Replies.empty(), Replies.empty(), Replies.empty(), Replies.empty()));
    }

    /** Redis 7's COMMAND DOCS entry: the name, then a map of its documentation fields. */
    private static void docs(final Session session, final Command c, final List<RedisMessage> reply)
    {
        reply.add(Replies.bulk(c.name()));
        reply.add(Replies.map(session, new ArrayList<>(List.of(Replies.bulk("summary"), Replies.bulk(c.summary()),
            Replies.bulk("group"), Replies.bulk(c.group())))));
    }
}
