package io.ddf.ingest.dispatch;

/**
 * Work a command of a connection left undone so that the commands pipelined after it can join it, finished before
 * anything else of the connection runs and before its input runs out: the pipelined BF.ADDs on a chain, whose table
 * lines are touched together before the first is added so that their cache misses overlap (a 10^9 chain on this
 * machine: 560-620 ns of CPU per add one by one, 230-260 touched 16 ahead; bench/results/daemon/add-ahead-*.md).
 * The replies stay in the order of the commands and every command sees the effects of those sent before it, as
 * each ran alone; nothing is deferred inside a transaction or a command run by another (EXEC), nor outside the
 * connection's own loop over its input ({@link #open}). One per connection, on its event loop.
 */
public final class Deferral
{
    /** Work left undone by a command. */
    public interface Work
    {
        /**
         * @param command the next command of the same connection (null: unknown).
         * @return whether it may join the work; if not, the work is finished before it runs.
         */
        boolean joins(Command command);

        /**
         * Does the work and writes its replies, in order: each command's error as its own reply. Leaves nothing
         * held (locks, leases), whatever it throws.
         *
         * @param session the connection.
         */
        void finish(Session session);
    }

    /** The connection whose work this is. */
    private final Session session;
    private Work pending;
    /** Whether the connection's loop over its input is running commands (only then may work wait). */
    private boolean open;
    /** How deep in {@link Conductor#run} the connection is: 1 for a command of its input. */
    private int depth;

    /** @param session the connection whose work this is. */
    Deferral(final Session session)
    {
        this.session = session;
    }

    /** @return whether the command running now may leave work undone. */
    public boolean allowed()
    {
        return open && depth == 1 && !session.inMulti();
    }

    /**
     * Leaves work undone; the caller has checked {@link #allowed}.
     *
     * @param work what to finish later; replaces nothing (finish the pending work first if it differs).
     */
    public void leave(final Work work)
    {
        pending = work;
    }

    /** Finishes the pending work, if any. */
    public void finish()
    {
        final Work work = pending;
        if (work != null)
        {
            pending = null;
            work.finish(session);
        }
    }

    /** The connection's loop starts running commands of its input. */
    public void open()
    {
        open = true;
    }

    /** The connection's loop has run what it could: the pending work is finished, nothing waits. */
    public void close()
    {
        open = false;
        finish();
    }

    /** Before a command runs: the pending work is finished unless the command joins it. */
    void before(final Command command)
    {
        if (pending != null && !pending.joins(command))
        {
            finish();
        }
        depth++;
    }

    /** After a command ran. */
    void after()
    {
        depth--;
    }
}
