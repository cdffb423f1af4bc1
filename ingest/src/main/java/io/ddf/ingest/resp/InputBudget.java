package io.ddf.ingest.resp;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The daemon-wide bound on input buffered for commands not yet complete, across all connections: without it 30
 * clients that each send the start of a 64 MiB command (every argument under the per-argument limit) and never
 * finish hold 2 GB. Each connection reserves the declared size of every argument of an unfinished command before
 * its bytes arrive ({@link RespDecoder}); when a reservation would pass the bound, the connection holding the most
 * is evicted (answered with an error naming the limit, then closed) — the newcomer itself if it holds the most — so
 * one greedy client cannot starve the others and the sum stays within the bound.
 */
public final class InputBudget
{
    /** What one argument costs besides its bytes: its slice and array slot, and the decoder's record of it. */
    static final int ARGUMENT_OVERHEAD = 128;

    private final long limit;
    private final AtomicLong reserved = new AtomicLong();
    private final Set<Account> holders = ConcurrentHashMap.newKeySet();

    /** @param limit most bytes all connections may hold at once. */
    public InputBudget(final long limit)
    {
        this.limit = limit;
    }

    /** @return the bound. */
    long limit()
    {
        return limit;
    }

    /** @return bytes reserved now. */
    public long reserved()
    {
        return reserved.get();
    }

    /**
     * @param evict how to evict it: on its own event loop, answer with the given error and close.
     * @return a connection's account.
     */
    Account open(final Consumer<String> evict)
    {
        return new Account(evict);
    }

    /** One connection's share; reserve and release on its event loop, eviction may come from any thread. */
    final class Account
    {
        private final Consumer<String> evict;
        private final AtomicLong held = new AtomicLong();
        private volatile boolean evicted;

        private Account(final Consumer<String> evict)
        {
            this.evict = evict;
        }

        /** @return bytes this connection holds. */
        long held()
        {
            return held.get();
        }

        /**
         * Reserves bytes for an argument about to be read.
         *
         * @param bytes its declared length plus {@link #ARGUMENT_OVERHEAD}.
         * @return false when this connection is the one to give way (it holds the most): refuse its command.
         */
        boolean reserve(final long bytes)
        {
            if (evicted)
            {
                return false;
            }
            held.addAndGet(bytes);
            holders.add(this);
            long total = reserved.addAndGet(bytes);
            while (total > limit)
            {
                final Account largest = largest();
                if (largest == null || largest == this)
                {
                    release();
                    return false;
                }
                total = largest.evict();
            }
            return true;
        }

        /** Releases everything this connection holds: its command completed, failed or the connection closed. */
        void release()
        {
            final long bytes = held.getAndSet(0);
            if (bytes != 0)
            {
                reserved.addAndGet(-bytes);
            }
            holders.remove(this);
        }

        private long evict()
        {
            evicted = true;
            release();
            evict.accept("command input over the daemon's limit of " + limit + " bytes buffered across all " +
                "connections (--max-input-bytes); this connection held the most; closing it");
            return reserved.get();
        }
    }

    private Account largest()
    {
        Account best = null;
        long most = -1;
        for (final Account account : holders)
        {
            final long h = account.held();
            if (h > most && !account.evicted)
            {
                best = account;
                most = h;
            }
        }
        return best;
    }
}
