package io.ddf.ingest.commands.server;

import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;

import java.util.ArrayList;
import java.util.List;

/**
 * COMMAND: what the {@link CommandTable} serves, as Redis 7 describes it (COUNT, INFO, DOCS, LIST), from the same
 * entries the conductor dispatches on, so the list a client sees is the list served.
 */
public final class CommandDocs
{
    private final CommandTable table;

    /** @param table the commands served. */
    public CommandDocs(final CommandTable table)
    {
        this.table = table;
    }

    /** @param table gets COMMAND. */
    public void register(final CommandTable table)
    {
        table.add(Command.keyless("command", -1, List.of("loading", "stale"), "server",
            "Get details about the commands served (COUNT, INFO, DOCS, LIST).", this::command).also("@connection")
            .subcommands(Command.Subcommand.of("command|count", "@slow", "@connection"), Command.Subcommand.of("command|info", "@slow", "@connection"),
                Command.Subcommand.of("command|docs", "@slow", "@connection"), Command.Subcommand.of("command|list", "@slow", "@connection"),
                Command.Subcommand.of("command|help", "@slow", "@connection")));
    }

    /** COMMAND, COMMAND COUNT, COMMAND INFO name..., COMMAND DOCS [name...], COMMAND LIST. */
    void command(final Session session, final ByteBuf[] args)
    {
        final String sub = args.length > 1 ? Replies.word(args[1]) : "";
        final List<RedisMessage> reply = new ArrayList<>();
        switch (sub)
        {
            case "" -> table.all().forEach(c -> reply.add(info(c)));
            case "count" ->
            {
                Command.atMost(args, 2, "command|count");
                session.replies().ready(Replies.integer(table.size()));
                return;
            }
            case "info" ->
            {
                for (int i = 2; i < args.length; i++)
                {
                    final Command c = table.lookup(Replies.word(args[i]));
                    reply.add(c == null ? Replies.nilArray() : info(c));
                }
            }
            case "docs" ->
            {
                if (args.length == 2)
                {
                    table.all().forEach(c -> docs(session, c, reply));
                }
                for (int i = 2; i < args.length; i++)
                {
                    final Command c = table.lookup(Replies.word(args[i]));
                    if (c != null)
                    {
                        docs(session, c, reply);
                    }
                }
                // Redis 7: a map of name to documentation in RESP3, the same as a flat array in RESP2
                session.replies().ready(Replies.map(reply));
                return;
            }
            case "list" -> table.all().forEach(c -> reply.add(Replies.bulk(c.name())));
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
