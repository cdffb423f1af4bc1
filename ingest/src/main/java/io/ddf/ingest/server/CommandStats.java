package io.ddf.ingest.server;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-command counters, Redis's {@code INFO commandstats} meaning: {@code calls} commands run, {@code usec} the
 * time the event loop spent in them, {@code rejected_calls} refused before running (wrong arity),
 * {@code failed_calls} that ran and answered an error on the event loop (an error of work done off it, such as a
 * BF.RESERVE's {@code item exists} found by the creation thread, is not counted: the handler has returned). As in
 * Redis the time excludes waiting: a BF.ADD's time is
 * its dispatch into the pipeline, not the wait for its verdict; a BF.RESERVE's is not the file's creation.
 * One entry per command of the {@link CommandTable}, made when the table is built, so recording allocates nothing
 * and is safe from every event loop.
 */
final class CommandStats
{
    /** The counters of one command. */
    static final class Stat
    {
        private final String name;
        final LongAdder calls = new LongAdder();
        final LongAdder nanos = new LongAdder();
        final LongAdder rejected = new LongAdder();
        final LongAdder failed = new LongAdder();

        private Stat(final String name)
        {
            this.name = name;
        }

        /** @return the command's name, lower case. */
        String name()
        {
            return name;
        }
    }

    /** Something told of every command run (the Prometheus histogram), besides the counters. */
    @FunctionalInterface
    interface Listener
    {
        /**
         * @param command the command's name.
         * @param nanos   time spent in it.
         */
        void ran(String command, long nanos);
    }

    private final Map<String, Stat> stats = new LinkedHashMap<>();
    private volatile Listener listener;

    /** @param names every command served. */
    CommandStats(final Collection<String> names)
    {
        names.forEach(n -> stats.put(n, new Stat(n)));
    }

    /** @param listener told of every command run from now on (at most one). */
    void listen(final Listener listener)
    {
        this.listener = listener;
    }

    /**
     * @param name a command's name.
     * @return its counters, or null for a name not served.
     */
    Stat get(final String name)
    {
        return stats.get(name);
    }

    /** @return every command's counters, in the table's order (never changed after construction). */
    Collection<Stat> all()
    {
        return Collections.unmodifiableCollection(stats.values());
    }

    /**
     * @param stat   the command's counters.
     * @param nanos  time spent running it.
     * @param failed whether it answered an error.
     */
    void ran(final Stat stat, final long nanos, final boolean failed)
    {
        stat.calls.increment();
        stat.nanos.add(nanos);
        if (failed)
        {
            stat.failed.increment();
        }
        final Listener l = listener;
        if (l != null)
        {
            l.ran(stat.name, nanos);
        }
    }

    /** Starts every counter again (CONFIG RESETSTAT); the histogram, cumulative by Prometheus's rules, is kept. */
    void reset()
    {
        for (final Stat stat : stats.values())
        {
            stat.calls.reset();
            stat.nanos.reset();
            stat.rejected.reset();
            stat.failed.reset();
        }
    }

    /** @param stat the counters of a command refused before it ran. */
    void rejected(final Stat stat)
    {
        stat.rejected.increment();
    }
}
