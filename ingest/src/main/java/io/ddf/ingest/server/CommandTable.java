package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every command the daemon knows, one {@link Command} each: the {@link Conductor} finds a command here by the bytes
 * of its name, and {@code COMMAND} (COUNT, INFO, DOCS, LIST) answers from the same entries, so the list a client
 * sees is the list served, with the arity, flags, ACL categories and key positions that are checked. Built once per
 * daemon, then read by every event loop (never changed after).
 *
 * <p>To add a command: write its handler where its family lives and register one entry there; nothing else lists
 * commands. The families: {@link RedisBloomCommands} (every BF.* and CF.* command, and MODULE: RedisBloom's surface,
 * each key routed to the filters that grow, {@link ScalingCommands}, or to ddf's fixed-size ones,
 * {@link FilterCommands}, {@link InsertCommand}, {@link CuckooCommands}, {@link ScanDump}), {@link ServerCommands}
 * (connection and administration commands and the generic key commands EXISTS, TYPE, DEL, UNLINK),
 * {@link KeyspaceCommands} (KEYS, SCAN, FLUSHALL, FLUSHDB, MEMORY), {@link TransactionCommands} (MULTI, EXEC,
 * DISCARD), {@link AclCommands} (AUTH's users: ACL), and COMMAND here.
 */
final class CommandTable
{
    private final Map<String, Command> commands = new LinkedHashMap<>();
    /** The same commands, found by the bytes of their name; rebuilt by {@link #add}. */
    private CommandIndex index = new CommandIndex(List.of());

    /**
     * @param server the daemon.
     * @return the table of every command the daemon serves.
     */
    static CommandTable of(final DdfServer server)
    {
        final CommandTable table = new CommandTable();
        new RedisBloomCommands(server).register(table);
        new ServerCommands(server).register(table);
        new KeyspaceCommands(server).register(table);
        new TransactionCommands().register(table);
        new AclCommands(server).register(table);
        table.add(Command.keyless("command", -1, List.of("loading", "stale"), "server",
            "Get details about the commands served (COUNT, INFO, DOCS, LIST).", table::command).also("@connection"));
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

    /**
     * @param name the name's bytes as the client sent them, any case (not consumed).
     * @return its entry, or null.
     */
    Command find(final ByteBuf name)
    {
        return index.find(name);
    }

    /**
     * The decoder's seam for arguments longer than {@code --max-bulk-bytes}: what the named command allows.
     *
     * @return the limit of the command named at {@code offset} of {@code input}, or 0.
     */
    long largeArguments(final ByteBuf input, final int offset, final int length)
    {
        final Command command = index.find(input, offset, length);
        return command == null ? 0 : command.largeArguments();
    }

    /** Starts every command's counters again (CONFIG RESETSTAT). */
    void resetStats()
    {
        commands.values().forEach(c -> c.stats().reset());
    }

    /** @return every entry, in registration order. */
    Collection<Command> all()
    {
        return Collections.unmodifiableCollection(commands.values());
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
                    reply.add(c == null ? Replies.nilArray() : info(c));
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
                session.replies().ready(Replies.map(reply));
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
            Replies.integer(c.step()), Replies.statuses(c.categories()), Replies.empty(), Replies.empty(),
            Replies.empty()));
    }

    /** Redis 7's COMMAND DOCS entry: the name, then a map of its documentation fields. */
    private static void docs(final Session session, final Command c, final List<RedisMessage> reply)
    {
        reply.add(Replies.bulk(c.name()));
        reply.add(Replies.map(new ArrayList<>(List.of(Replies.bulk("summary"), Replies.bulk(c.summary()),
            Replies.bulk("group"), Replies.bulk(c.group())))));
    }
}
