package io.ddf.ingest.durability;

import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.log.RateLimitedLog;
import io.ddf.ingest.resp.DurabilityBarrier;
import io.ddf.persistence.Syncable;
import io.ddf.persistence.log.ChangeLog;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.EventExecutor;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * {@code serve --fsync always}: a reply that acknowledges a write leaves only once the write is on the device, and
 * the writes of many replies share one sync (a group commit, as a database's log or Redis's {@code appendfsync
 * always}, which shares one fsync per event loop iteration).
 *
 * <p>Per event loop, commits run one at a time. A connection's gate sends replies on at once when they acknowledge
 * nothing unsynced; else it holds them, in order, for the loop's next commit: the first reply held after the loop is
 * idle ends the round once the loop has read every connection that was ready (a task on the loop: Netty runs tasks
 * after the ready channels). When every filter the round's replies acknowledge writes to is written through the
 * change log, the commit is one force of the log and the loop runs it itself, then writes the replies (as Redis's
 * {@code appendfsync always}: the hand-offs to a thread and back cost more CPU than they save, see {@code
 * onTheLoop}). Otherwise it runs on a thread of the loop's own ({@code ddf-commit-N}), so the loop goes on reading and
 * running commands while the filters' pages are synced, each with one msync; replies held meanwhile wait for the next
 * commit, which starts as soon as it completes, before the completed commit's replies are written (the device works
 * while the loop sends them). When a commit completes its replies are written; when it fails they are dropped and
 * their connections closed (never a false acknowledgement).
 *
 * <p>Why a write is on the device when its reply leaves: the gate names the filter to a commit that starts after
 * the write was stored. Inline, the store precedes the reply's sending; through the pipeline, the verdict comes back
 * after the store, and a gate keeps naming the filters its connection published to until none of its elements is
 * still in the pipeline ({@code settled}), so a round never forgets a filter whose store it has not yet seen. The
 * sync of a filter forces every page marked before it starts (engine: {@code DirtyPages}); that of a filter that
 * grows, every change counted before it starts ({@code ScalingFilter}).
 *
 * <p>Through the data directory's change log (issue 31): a commit forces the log once (every record appended when it
 * starts: the records of every write its replies acknowledge, on whichever filter), and syncs only the filters not
 * written through the log (a kind the engine does not log yet). With the log, the mapped tables are out of the
 * request path's durability: checkpoints make them durable.
 *
 * <p>A sync slower than the bound ({@code --fsync-warn-ms}) is logged (at most once per 10 s) and counted.
 */
final class GroupCommit implements DurabilityBarrier, AutoCloseable
{
    private final long boundNanos;
    private final RateLimitedLog slowLog;
    private final RateLimitedLog failureLog;
    private final Map<EventExecutor, Loop> loops = new ConcurrentHashMap<>();
    private final LongAdder started = new LongAdder();
    private final LongAdder commits = new LongAdder();
    private final LongAdder replies = new LongAdder();
    private final LongAdder delayed = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private volatile long lastNanos;
    private volatile long lastMillis;
    private volatile boolean closed;
    /** The data directory's change log, or null: forced once per commit. */
    private volatile CommitLog changeLog;

    /**
     * @param boundMillis how long a commit may take before it is logged and counted as delayed.
     * @param log         the daemon's log.
     */
    GroupCommit(final long boundMillis, final PrintStream log)
    {
        this.boundNanos = TimeUnit.MILLISECONDS.toNanos(boundMillis);
        this.slowLog = new RateLimitedLog(log::println, 10);
        this.failureLog = new RateLimitedLog(log::println, 10);
    }

    /** @param log the data directory's change log: each commit forces it, and syncs only the filters not logged. */
    void throughLog(final ChangeLog log)
    {
        throughLog(CommitLog.of(log));
    }

    /** @param log what each commit forces (tests: a log that fails). */
    void throughLog(final CommitLog log)
    {
        this.changeLog = log;
    }

    @Override
    public Gate gate(final EventExecutor loop, final BooleanSupplier settled, final Output output)
    {
        return new ConnectionGate(loops.computeIfAbsent(loop, Loop::new), settled, output);
    }

    /** @return commits handed to the commit threads (tests: when the next one starts). */
    long started()
    {
        return started.sum();
    }

    /** @return commits run. */
    long commits()
    {
        return commits.sum();
    }

    /** @return connections' reply batches released by commits. */
    long releases()
    {
        return replies.sum();
    }

    /** @return commits that took longer than the bound. */
    long delayed()
    {
        return delayed.sum();
    }

    /** @return commits that failed. */
    long errors()
    {
        return errors.sum();
    }

    /** @return how long the last commit took, nanoseconds. */
    long lastNanos()
    {
        return lastNanos;
    }

    /** @return when the last commit started, epoch milliseconds; 0 before the first. */
    long lastMillis()
    {
        return lastMillis;
    }

    /**
     * Shutting down: returns once no commit is running or waiting on any event loop (the replies they hold written),
     * or after the timeout.
     *
     * @param timeoutMillis the most to wait.
     */
    void awaitIdle(final long timeoutMillis)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        for (final Loop loop : loops.values())
        {
            while (!loop.idle && System.nanoTime() < deadline)
            {
                try
                {
                    Thread.sleep(1);
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Stops the commit threads: a reply still held is dropped with its connection. */
    @Override
    public void close()
    {
        closed = true;
        for (final Loop loop : loops.values())
        {
            loop.syncer.shutdownNow();
        }
    }

    /** One event loop's commits: the round being gathered, and at most one commit in flight. */
    private final class Loop
    {
        private final EventExecutor executor;
        private final ExecutorService syncer;
        /** Filters and gates of the round being gathered (event loop). */
        private FilterSet gathering = new FilterSet();
        private ArrayList<ConnectionGate> waiting = new ArrayList<>();
        /** Filters and gates of the commit in flight (written by the loop before the hand-off to the syncer). */
        private FilterSet flying = new FilterSet();
        private ArrayList<ConnectionGate> released = new ArrayList<>();
        /** Gates of the commit that just completed, their replies written after the next commit has started. */
        private ArrayList<ConnectionGate> landed = new ArrayList<>();
        private boolean scheduled;
        private boolean busy;
        /** Read by {@link #awaitIdle}: nothing gathered, nothing in flight. */
        private volatile boolean idle = true;
        /** The in-flight commit's outcome, handed back to the loop with {@link #complete}. */
        private volatile boolean succeeded;
        private final Runnable endOfRound = this::endOfRound;
        private final Runnable sync = this::sync;
        private final Runnable complete = this::complete;

        Loop(final EventExecutor executor)
        {
            this.executor = executor;
            this.syncer = Executors.newSingleThreadExecutor(r ->
            {
                final Thread thread = new Thread(r, "ddf-commit-" + loops.size());
                thread.setDaemon(true);
                return thread;
            });
        }

        /** A gate's replies wait for the next commit, which syncs these filters. */
        void enlist(final ConnectionGate gate, final FilterSet filters)
        {
            for (int i = 0; i < filters.size(); i++)
            {
                gathering.add(filters.get(i));
            }
            if (!gate.enlisted)
            {
                gate.enlisted = true;
                waiting.add(gate);
            }
            idle = false;
            if (!scheduled && !busy)
            {
                scheduled = true;
                executor.execute(endOfRound);
            }
        }

        /** After the loop has read every connection that was ready: the round's commit starts, unless one runs. */
        private void endOfRound()
        {
            scheduled = false;
            if (!busy && !waiting.isEmpty())
            {
                start();
            }
        }

        private void start()
        {
            final FilterSet filters = gathering;
            gathering = flying;
            flying = filters;
            final ArrayList<ConnectionGate> gates = waiting;
            waiting = released;
            released = gates;
            for (int i = 0; i < gates.size(); i++)
            {
                gates.get(i).started();
            }
            busy = true;
            started.increment();
            if (onTheLoop(filters))
            {
                sync(); // and complete()
                return;
            }
            try
            {
                syncer.execute(sync);
            }
            catch (final RejectedExecutionException e)
            {
                succeeded = false; // shutting down: nothing is acknowledged any more
                complete();
            }
        }

        /**
         * Whether the loop commits this round itself: when the commit is one force of the change log (every filter of
         * the round written through it; tens of bytes a write). Profiled at {@code -c 50} (issue 31), a commit on
         * the thread cost the loop the thread's wake-up and its own eventfd wake-up and sleep, and the thread its own
         * sleep and wake-up, per commit: the server's CPU per request fell from 35.9 to 29.3 us with the loop's own
         * force, req/s 1.06x (bench/results/fsync/2026-11-29-c50-loop-force-vs-v1.md, load 3). While it forces, the
         * loop reads nothing, as Redis. A filter not in the log is synced on the commit thread: its msync writes
         * pages of its table, which can take long.
         */
        private boolean onTheLoop(final FilterSet filters)
        {
            final CommitLog log = changeLog;
            if (log == null)
            {
                return false;
            }
            for (int i = 0; i < filters.size(); i++)
            {
                if (!log.holds(filters.get(i)))
                {
                    return false;
                }
            }
            return true;
        }

        /** On the commit thread or the loop ({@link #onTheLoop}): one force of the log, a sync per filter not in it. */
        private void sync()
        {
            final long startMillis = System.currentTimeMillis();
            final long start = System.nanoTime();
            boolean ok = !closed;
            final FilterSet filters = flying;
            final CommitLog log = changeLog;
            if (log != null && ok)
            {
                try
                {
                    log.force(); // one force: a record of every write stored before this commit
                }
                catch (final RuntimeException e)
                {
                    ok = false;
                    errors.increment();
                    failureLog.log("ddf: forcing the change log " + log.directory() + " failed; the replies that " +
                        "acknowledge writes are withheld and their connections closed: " + OneLine.of(e));
                }
            }
            for (int i = 0; i < filters.size() && ok; i++)
            {
                if (log != null && log.holds(filters.get(i)))
                {
                    continue;
                }
                try
                {
                    filters.get(i).sync();
                }
                catch (final RuntimeException e)
                {
                    ok = false;
                    errors.increment();
                    failureLog.log("ddf: fsync of " + filters.get(i).path() + " failed; the replies that " +
                        "acknowledge its writes are withheld and their connections closed: " + OneLine.of(e));
                }
            }
            final long took = System.nanoTime() - start;
            if (ok)
            {
                commits.increment();
                lastNanos = took;
                lastMillis = startMillis;
                if (took > boundNanos)
                {
                    delayed.increment();
                    slowLog.log("ddf: a group commit took " + TimeUnit.NANOSECONDS.toMillis(took) + " ms, more " +
                        "than --fsync-warn-ms " + TimeUnit.NANOSECONDS.toMillis(boundNanos) + ": is the disk busy?");
                }
            }
            succeeded = ok;
            if (executor.inEventLoop())
            {
                complete(); // committed on the loop
                return;
            }
            try
            {
                executor.execute(complete);
            }
            catch (final RejectedExecutionException e)
            {
                // the event loop is gone: so are its connections
            }
        }

        /**
         * On the loop: the next commit starts (when replies wait for one), then the completed commit's replies leave;
         * when it failed, their connections close first.
         */
        private void complete()
        {
            final boolean ok = succeeded;
            final ArrayList<ConnectionGate> gates = released;
            replies.add(gates.size());
            flying.clear();
            busy = false;
            if (!ok)
            {
                for (int i = 0; i < gates.size(); i++)
                {
                    gates.get(i).failed();
                }
                gates.clear();
            }
            else
            {
                for (int i = 0; i < gates.size(); i++)
                {
                    gates.get(i).landed(); // its replies out of the way of the next commit's
                }
                released = landed;
                landed = gates;
            }
            if (!waiting.isEmpty())
            {
                // their writes were stored before they were held: no need to wait for a round's end, nor for the
                // replies below to be written (the device works on the next commit meanwhile)
                start();
            }
            if (ok)
            {
                for (int i = 0; i < gates.size(); i++)
                {
                    gates.get(i).deliver();
                }
                gates.clear();
            }
            if (!busy)
            {
                idle = !scheduled; // once the replies are written (awaitIdle)
            }
        }
    }

    /** A connection's gate: its replies held for the commit in flight, and those for the next one. */
    private static final class ConnectionGate implements Gate
    {
        private final Loop loop;
        private final BooleanSupplier settled;
        private final Output output;
        /** Filters the replies sent from now on acknowledge writes to. */
        private final FilterSet written = new FilterSet();
        /** Replies waiting for the commit in flight, and whether the connection closes after them. */
        private ByteBuf flying;
        private boolean flyingClose;
        private boolean inFlight;
        /** Replies of a commit that succeeded, between {@link #landed} and {@link #deliver}. */
        private ByteBuf landed;
        private boolean landedClose;
        /** Replies waiting for the next commit. */
        private ByteBuf next;
        private boolean nextClose;
        /** Whether the gate is among the next commit's. */
        private boolean enlisted;
        private boolean closed;

        ConnectionGate(final Loop loop, final BooleanSupplier settled, final Output output)
        {
            this.loop = loop;
            this.settled = settled;
            this.output = output;
        }

        @Override
        public void wrote(final Syncable filter)
        {
            written.add(filter);
        }

        @Override
        public void send(final ByteBuf replies, final boolean closeAfter)
        {
            if (closed)
            {
                release(replies);
                return;
            }
            if (written.size() > 0)
            {
                loop.enlist(this, written);
                if (settled.getAsBoolean())
                {
                    written.clear();
                }
                next = append(next, replies);
                nextClose |= closeAfter;
            }
            else if (enlisted)
            {
                next = append(next, replies); // behind replies that wait for the next commit
                nextClose |= closeAfter;
            }
            else if (inFlight)
            {
                flying = append(flying, replies); // acknowledges nothing new: leaves with the commit in flight
                flyingClose |= closeAfter;
            }
            else
            {
                output.write(replies, closeAfter);
            }
        }

        @Override
        public long held()
        {
            return bytes(flying) + bytes(next);
        }

        /** The next commit starts: what waited for it is now in flight. */
        void started()
        {
            enlisted = false;
            inFlight = true;
            flying = next;
            flyingClose = nextClose;
            next = null;
            nextClose = false;
        }

        /**
         * The commit in flight failed: its replies are dropped and the connection closed, after the replies of an
         * earlier commit that landed and are not yet delivered (see {@link #landed}): their writes are on the device.
         */
        void failed()
        {
            inFlight = false;
            final ByteBuf replies = flying;
            flying = null;
            flyingClose = false;
            release(replies);
            deliver();
            if (!closed)
            {
                close();
                output.unsynced();
            }
        }

        /**
         * The commit in flight succeeded: its replies wait for {@link #deliver}, the next commit may start. Behind any
         * of the commit before it still undelivered: a commit run on the loop completes within the completion of the
         * one before it ({@code Loop.complete} starts it before that one's replies are written).
         */
        void landed()
        {
            inFlight = false;
            landed = append(landed, flying);
            landedClose |= flyingClose;
            flying = null;
            flyingClose = false;
        }

        /** Writes the replies of the commits that succeeded and landed, in their order. */
        void deliver()
        {
            final ByteBuf replies = landed;
            final boolean closeAfter = landedClose;
            landed = null;
            landedClose = false;
            if (closed)
            {
                release(replies);
                return;
            }
            if (replies != null || closeAfter)
            {
                output.write(replies, closeAfter);
            }
        }

        @Override
        public void close()
        {
            closed = true;
            release(flying);
            release(next);
            release(landed);
            flying = null;
            next = null;
            landed = null;
            written.clear();
        }

        private static ByteBuf append(final ByteBuf held, final ByteBuf replies)
        {
            if (held == null)
            {
                return replies;
            }
            if (replies != null)
            {
                held.writeBytes(replies);
                replies.release();
            }
            return held;
        }

        private static long bytes(final ByteBuf b)
        {
            return b == null ? 0 : b.readableBytes();
        }

        private static void release(final ByteBuf b)
        {
            if (b != null)
            {
                b.release();
            }
        }
    }
}
