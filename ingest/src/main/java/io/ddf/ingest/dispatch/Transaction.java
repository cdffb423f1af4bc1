package io.ddf.ingest.dispatch;

import io.ddf.ingest.resp.RespError;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.util.ArrayList;
import java.util.List;

/**
 * A connection's MULTI: the commands queued until EXEC, and whether one was refused while queuing (then EXEC
 * discards them all, as Redis's EXECABORT). Owned by the connection's event loop.
 */
public final class Transaction
{
    private List<ByteBuf[]> queued;
    private boolean refused;

    /** @return whether MULTI was sent and neither EXEC nor DISCARD yet. */
    public boolean active()
    {
        return queued != null;
    }

    /** Opens the transaction (MULTI). */
    public void begin()
    {
        queued = new ArrayList<>();
        refused = false;
    }

    /** @param args a command to run at EXEC (copied: the caller's buffers are released). */
    void queue(final ByteBuf[] args)
    {
        final ByteBuf[] copies = new ByteBuf[args.length];
        for (int i = 0; i < args.length; i++)
        {
            copies[i] = Unpooled.copiedBuffer(args[i]);
        }
        queued.add(copies);
    }

    /** A command was refused while queuing (unknown, wrong arity): EXEC will run nothing. */
    void refuse()
    {
        refused = true;
    }

    /**
     * Closes the transaction (EXEC).
     *
     * @return the queued commands, to run.
     * @throws RespError EXECABORT, after releasing them, when one was refused while queuing.
     */
    public List<ByteBuf[]> end()
    {
        final List<ByteBuf[]> commands = queued;
        queued = null;
        if (refused)
        {
            release(commands);
            throw new RespError("EXECABORT Transaction discarded because of previous errors.");
        }
        return commands;
    }

    /** Drops the queued commands (DISCARD, or the connection closing). */
    public void discard()
    {
        if (queued != null)
        {
            release(queued);
            queued = null;
        }
    }

    private static void release(final List<ByteBuf[]> commands)
    {
        for (final ByteBuf[] args : commands)
        {
            for (final ByteBuf arg : args)
            {
                arg.release();
            }
        }
    }
}
