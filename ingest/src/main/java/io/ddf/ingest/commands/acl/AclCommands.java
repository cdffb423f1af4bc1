package io.ddf.ingest.commands.acl;

import io.ddf.ingest.acl.AclException;
import io.ddf.ingest.acl.AclReply;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;

import java.util.ArrayList;
import java.util.List;

/** The ACL command: {@link io.ddf.ingest.acl.AclCommand}'s answers as RESP2 or RESP3 replies. */
public final class AclCommands
{
    private final java.util.function.Supplier<io.ddf.ingest.acl.AclCommand> command;

    /**
     * @param command the ACL's subcommands (made with the users, once every command is registered: the ACL's rules
     *                name them).
     */
    public AclCommands(final java.util.function.Supplier<io.ddf.ingest.acl.AclCommand> command)
    {
        this.command = command;
    }

    /** @param table where to register ACL. */
    public void register(final CommandTable table)
    {
        table.add(Command.keyless("acl", -2, List.of("noscript", "loading", "stale"), "server",
            "Users and their rights: WHOAMI, USERS, LIST, CAT, SETUSER, DELUSER, GETUSER, LOAD, SAVE, LOG, DRYRUN, " +
                "GENPASS.", this::acl).subcommands(Command.Subcommand.of("acl|whoami", "@fast"),
                Command.Subcommand.of("acl|cat", "@slow"), Command.Subcommand.of("acl|genpass", "@slow"),
                Command.Subcommand.of("acl|help", "@slow"), admin("acl|users"), admin("acl|list"), admin("acl|getuser"),
                admin("acl|setuser"), admin("acl|deluser"), admin("acl|load"), admin("acl|save"), admin("acl|log"),
                admin("acl|dryrun")));
    }

    private static Command.Subcommand admin(final String name)
    {
        return Command.Subcommand.of(name, "@admin", "@slow", "@dangerous");
    }

    private void acl(final Session session, final ByteBuf[] args)
    {
        final List<String> words = new ArrayList<>(args.length);
        for (final ByteBuf arg : args)
        {
            words.add(Replies.key(arg));
        }
        try
        {
            session.replies().ready(resp(command.get().execute(session.identity().name(), words)));
        }
        catch (final AclException e)
        {
            throw new RespError(e.getMessage());
        }
    }

    private static RedisMessage resp(final AclReply reply)
    {
        if (reply instanceof AclReply.Status s)
        {
            return new SimpleStringRedisMessage(s.text());
        }
        if (reply instanceof AclReply.Bulk b)
        {
            return b.text() == null ? Replies.nil() : Replies.keyBulk(b.text());
        }
        if (reply instanceof AclReply.Int i)
        {
            return Replies.integer(i.value());
        }
        if (reply instanceof AclReply.Real r)
        {
            return Replies.dbl(r.value());
        }
        if (reply instanceof AclReply.Many m)
        {
            final List<RedisMessage> items = new ArrayList<>();
            m.items().forEach(item -> items.add(resp(item)));
            return new ArrayRedisMessage(items);
        }
        final List<RedisMessage> pairs = new ArrayList<>();
        ((AclReply.Fields)reply).fields().forEach((k, v) ->
        {
            pairs.add(Replies.bulk(k));
            pairs.add(resp(v));
        });
        return Replies.map(pairs);
    }
}
