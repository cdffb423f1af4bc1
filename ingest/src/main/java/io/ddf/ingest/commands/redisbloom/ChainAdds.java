package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.scaling.AddResult;
import io.ddf.engine.scaling.BloomChain;
import io.ddf.engine.scaling.ChainItems;
import io.ddf.engine.scaling.ScalingFilter;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.Conductor;
import io.ddf.ingest.dispatch.Deferral;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.redisbloom.Errors;
import io.ddf.ingest.resp.ReplyWriter;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterStoreException;
import io.ddf.ingest.store.ScalingRegistry;
import io.ddf.persistence.log.LogUnavailableException;
import org.agrona.DirectBuffer;

import java.util.function.Function;

/**
 * A connection's pipelined BF.ADDs on chains, added together ({@link Deferral}): each add is hashed as its command
 * runs; when the group is full, or the next command is not a BF.ADD, or the input runs out, the group's table lines
 * are touched in one tight loop (the misses overlap), then the items are added in order and their replies written.
 * One add alone misses the cache on its line and waits for it: at 10^9 most of an add's cost (a 1.4 GB table whose
 * lines and page-table entries are not cached).
 *
 * <p>The registry's read lock is held from an add's command until the group is finished, so that no chain of the
 * group is deleted or closed meanwhile (a DEL on another event loop waits for it, at most a group of 16 adds); the
 * lock is reentrant, one hold per add, all released by {@link #finish} whatever it throws.
 */
final class ChainAdds implements Deferral.Work
{
    /** Adds touched together: BatchStream's group, measured there; a -P 16 client's pipeline fills one. */
    static final int GROUP = 16;

    private final ScalingRegistry registry;
    /** The refusal a failed append makes (the daemon's durability, {@code Durability.refusalOf}), or null. */
    private final Function<LogUnavailableException, String> refusal;
    private final BloomChain[] chains = new BloomChain[GROUP];
    private final long[] first = new long[GROUP];
    private final long[] second = new long[GROUP];
    /**
     * One group per event loop, the adds of the connection whose input the loop is running: a connection's
     * {@link Deferral} is closed (its group finished) before the loop turns to another connection's input.
     */
    private int count;
    /** What the touches read: stored, so that the reads are not optimised away (never read). */
    @SuppressWarnings("unused")
    private long touched;

    ChainAdds(final ScalingRegistry registry, final Function<LogUnavailableException, String> refusal)
    {
        this.registry = registry;
        this.refusal = refusal;
    }

    /**
     * Takes an add into the group when the key holds a chain ({@link Deferral#allowed} checked by the caller).
     *
     * @param session the connection.
     * @param key     the key.
     * @param item    the item's bytes.
     * @param length  how many.
     * @return false when the key holds no chain: nothing taken, nothing held.
     */
    boolean offer(final Session session, final String key, final DirectBuffer item, final int length)
    {
        final ScalingFilter filter;
        try
        {
            filter = registry.acquire(key);
        }
        catch (final IllegalStateException cannotOpen)
        {
            registry.release();
            throw Scaling.error(cannotOpen);
        }
        if (!(filter instanceof BloomChain chain))
        {
            registry.release();
            return false;
        }
        final long a = ChainItems.first(chain, item, 0, length);
        chains[count] = chain;
        first[count] = a;
        second[count] = ChainItems.second(chain, item, 0, length, a);
        if (count++ == 0)
        {
            session.deferral().leave(this);
        }
        if (count == GROUP)
        {
            session.deferral().finish();
        }
        return true;
    }

    @Override
    public boolean joins(final Command command)
    {
        return command != null && "bf.add".equals(command.name());
    }

    @Override
    public void finish(final Session session)
    {
        final int n = count;
        count = 0;
        try
        {
            long sum = 0;
            for (int i = 0; i < n; i++)
            {
                sum += ChainItems.touch(chains[i], first[i]);
            }
            touched += sum;
            final ReplyWriter replies = session.replies();
            BloomChain written = null;
            for (int i = 0; i < n; i++)
            {
                final BloomChain chain = chains[i];
                if (chain != written)
                {
                    replies.wrote(chain); // under --fsync always the replies leave once the chain is forced
                    written = chain;
                }
                reply(replies, chain, first[i], second[i], refusal);
            }
        }
        finally
        {
            for (int i = 0; i < n; i++)
            {
                chains[i] = null;
                registry.release();
            }
        }
    }

    /** One add and its reply, or its error as the command's own reply (as the conductor words it alone). */
    private static void reply(final ReplyWriter replies, final BloomChain chain, final long a, final long b,
        final Function<LogUnavailableException, String> refusal)
    {
        try
        {
            final AddResult result = ChainItems.add(chain, a, b);
            if (result == AddResult.FULL)
            {
                replies.error(Errors.FULL);
                return;
            }
            replies.bool(result != AddResult.EXISTS);
        }
        catch (final RespError | FilterStoreException e)
        {
            replies.error(Session.message(e));
        }
        catch (final LogUnavailableException e)
        {
            replies.error(Conductor.logFailureReply(refusal.apply(e), e));
        }
    }
}
