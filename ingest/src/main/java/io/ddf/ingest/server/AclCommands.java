package io.ddf.ingest.server;

import io.ddf.ingest.acl.AclException;
import io.ddf.ingest.acl.AclReply;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;

import java.util.ArrayList;
import java.util.List;

/** The ACL command: {@link io.ddf.ingest.acl.AclCommand}'s answers as RESP2 or RESP3 replies. */
final class AclCommands
{
    private final DdfServer server;

    /** @param server the daemon. */
    AclCommands(final DdfServer server)
    {
        this.server = server;
    }

    /** @param table where to register ACL. */
    void register(final CommandTable table)
    {
        table.add(Command.keyless("acl", -2, List.of("noscript", "loading", "stale"), "server",
            "Users and their rights: WHOAMI, USERS, LIST, CAT, SETUSER, DELUSER, GETUSER, LOAD, SAVE, LOG, DRYRUN, " +
                "GENPASS.", this::acl));
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
            session.replies().ready(resp(server.security().aclCommand().execute(session.identity().name(), words)));
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
