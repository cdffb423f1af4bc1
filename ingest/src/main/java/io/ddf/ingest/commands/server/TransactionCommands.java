package io.ddf.ingest.commands.server;

import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.netty.buffer.ByteBuf;

import java.util.List;

/**
 * MULTI, EXEC and DISCARD. Between MULTI and EXEC the {@link io.ddf.ingest.dispatch.Conductor} queues each command (QUEUED) instead of
 * running it; EXEC runs them one after the other, before any later command of the connection, and replies with
 * one array of their replies. Atomic with respect to the connection: its other commands never interleave; other
 * connections' commands may (ddf has no global lock, and WATCH is not served).
 */
public final class TransactionCommands
{
    private static final String GROUP = "transactions";

    /** @param table gets MULTI, EXEC and DISCARD. */
    public void register(final CommandTable table)
    {
        table.add(Command.keyless("multi", 1, List.of("noscript", "loading", "stale", "fast"), GROUP,
            "Starts a transaction: later commands are queued until EXEC.", this::multi));
        table.add(Command.keyless("exec", 1, List.of("noscript", "loading", "stale", "skip-slowlog"), GROUP,
            "Runs the queued commands, before any later command of the connection; an array of their replies.",
            this::exec));
        table.add(Command.keyless("discard", 1, List.of("noscript", "loading", "stale", "fast"), GROUP,
            "Drops the queued commands.", this::discard));
    }

    private void multi(final Session session, final ByteBuf[] args)
    {
        if (session.inMulti())
        {
            // not thrown: Redis keeps the transaction open after a nested MULTI
            session.replies().error("ERR MULTI calls can not be nested");
            return;
        }
        session.multi();
        session.replies().ready(Replies.OK);
    }

    private void exec(final Session session, final ByteBuf[] args)
    {
        if (!session.inMulti())
        {
            throw new RespError("ERR EXEC without MULTI");
        }
        final List<ByteBuf[]> queued = session.exec();
        session.replies().group(queued.size());
        session.runAll(queued);
    }

    private void discard(final Session session, final ByteBuf[] args)
    {
        if (!session.inMulti())
        {
            throw new RespError("ERR DISCARD without MULTI");
        }
        session.discard();
        session.replies().ready(Replies.OK);
    }
}
