package io.ddf.ingest.durability;

import io.ddf.engine.DuplicateFilter;
import io.ddf.ingest.resp.DurabilityBarrier;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.DefaultEventLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --fsync always}'s group commit, one connection's gate at a time on a real event loop, with filters whose
 * syncs the test holds: a reply that acknowledges a write leaves only after a sync of that filter that started after
 * it was sent; replies keep their order; writes held while a commit runs share the next one; a filter published to
 * the pipeline is named to every commit until its elements are judged; a failed sync drops the replies and closes.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GroupCommitTest
{
    private final DefaultEventLoop loop = new DefaultEventLoop();
    private final GroupCommit commit = new GroupCommit(1000, new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8));

    @AfterEach
    void stop()
    {
        commit.close();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** A filter that records its syncs, each of which waits until the test lets it finish. */
    private static final class HeldFilter
    {
        final String name;
        final BlockingQueue<CountDownLatch> started = new LinkedBlockingQueue<>();
        volatile boolean fail;
        volatile boolean hold = true;
        final DuplicateFilter filter;

        HeldFilter(final String name)
        {
            this.name = name;
            this.filter = (DuplicateFilter)Proxy.newProxyInstance(DuplicateFilter.class.getClassLoader(),
                new Class<?>[] {DuplicateFilter.class}, (proxy, method, args) -> switch (method.getName())
                {
                    case "sync" -> sync();
                    case "path" -> Path.of(name);
                    case "toString" -> name;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        }

        private long sync() throws InterruptedException
        {
            final CountDownLatch done = new CountDownLatch(1);
            started.add(done);
            if (hold)
            {
                assertTrue(done.await(20, TimeUnit.SECONDS), "the test let the sync finish");
            }
            if (fail)
            {
                throw new IllegalStateException("EIO (the test's)");
            }
            return 1;
        }

        /** Waits for the next sync to start; returns what lets it finish. */
        CountDownLatch nextSync() throws InterruptedException
        {
            final CountDownLatch sync = started.poll(20, TimeUnit.SECONDS);
            assertTrue(sync != null, name + " was synced");
            return sync;
        }

        /** @return whether a sync started within a while (none is expected). */
        boolean syncStarted(final long millis) throws InterruptedException
        {
            final CountDownLatch sync = started.poll(millis, TimeUnit.MILLISECONDS);
            if (sync != null)
            {
                sync.countDown();
            }
            return sync != null;
        }
    }

    /** One connection: its gate on the loop, and what its output received. */
    private final class Connection implements DurabilityBarrier.Output
    {
        final StringBuffer written = new StringBuffer();
        final AtomicBoolean closed = new AtomicBoolean();
        final AtomicBoolean unsynced = new AtomicBoolean();
        volatile boolean settled = true;
        /** Run on the loop before each write (what the test checks then). */
        volatile Runnable beforeWrite = () -> { };
        final DurabilityBarrier.Gate gate;

        Connection(final DurabilityBarrier barrier)
        {
            gate = barrier.gate(loop, () -> settled, this);
        }

        @Override
        public void write(final ByteBuf replies, final boolean closeAfter)
        {
            assertTrue(loop.inEventLoop(), "written on the connection's loop");
            beforeWrite.run();
            if (replies != null)
            {
                written.append(replies.toString(StandardCharsets.US_ASCII));
                replies.release();
            }
            closed.compareAndSet(false, closeAfter);
        }

        @Override
        public void unsynced()
        {
            unsynced.set(true);
        }

        /** On the loop: the replies acknowledge writes to these filters, then are sent. */
        void send(final String replies, final HeldFilter... wrote) throws Exception
        {
            on(() ->
            {
                for (final HeldFilter f : wrote)
                {
                    gate.wrote(f.filter);
                }
                gate.send(Unpooled.copiedBuffer(replies, StandardCharsets.US_ASCII), false);
                return null;
            });
        }

        long held() throws Exception
        {
            return on(gate::held);
        }

        /** What the output got, once the loop has run what was queued on it. */
        String written() throws Exception
        {
            on(() -> null);
            return written.toString();
        }
    }

    private <T> T on(final Callable<T> task) throws Exception
    {
        return loop.submit(task).get(20, TimeUnit.SECONDS);
    }

    /** Waits until the output got this, or fails after a while. */
    private static void await(final Connection c, final String expected) throws InterruptedException
    {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!c.written.toString().equals(expected) && System.nanoTime() < end)
        {
            Thread.sleep(1);
        }
        assertEquals(expected, c.written.toString());
    }

    /** Waits until the connection is told to close (a failed commit), or fails after a while. */
    private static void awaitUnsynced(final Connection c) throws InterruptedException
    {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!c.unsynced.get() && System.nanoTime() < end)
        {
            Thread.sleep(1);
        }
        assertTrue(c.unsynced.get(), "the connection is told to close");
    }

    @Test
    void repliesThatAcknowledgeNoWriteLeaveAtOnce() throws Exception
    {
        final Connection c = new Connection(commit);
        c.send(":1\r\n");
        assertEquals(":1\r\n", c.written(), "nothing to wait for");
        assertEquals(0, commit.commits());
    }

    @Test
    void aReplyThatAcknowledgesAWriteLeavesOnlyOnceItsFilterIsSynced() throws Exception
    {
        final HeldFilter f = new HeldFilter("f");
        final Connection c = new Connection(commit);
        c.send(":1\r\n", f);
        final CountDownLatch sync = f.nextSync();
        assertEquals("", c.written(), "held while the sync runs");
        assertEquals(4, c.held(), "and counted against the output limit");
        sync.countDown();
        await(c, ":1\r\n");
        assertEquals(0, c.held());
        assertEquals(1, commit.commits());
        c.send(":0\r\n");
        assertEquals(":1\r\n:0\r\n", c.written(), "once synced, a reply of no write leaves at once again");
    }

    @Test
    void laterRepliesWaitBehindHeldOnesInOrder() throws Exception
    {
        final HeldFilter f = new HeldFilter("f");
        final Connection c = new Connection(commit);
        c.send("+a\r\n", f);
        final CountDownLatch first = f.nextSync();
        c.send("+b\r\n"); // acknowledges nothing new: leaves with the commit in flight, after +a
        c.send("+c\r\n", f); // a new write: the next commit
        c.send("+d\r\n"); // behind +c
        assertEquals("", c.written());
        first.countDown();
        await(c, "+a\r\n+b\r\n");
        final CountDownLatch second = f.nextSync();
        assertEquals("+a\r\n+b\r\n", c.written(), "+c waits for a sync that started after its write");
        second.countDown();
        await(c, "+a\r\n+b\r\n+c\r\n+d\r\n");
        assertEquals(2, commit.commits());
    }

    @Test
    void writesHeldWhileACommitRunsShareTheNextOne() throws Exception
    {
        final HeldFilter f = new HeldFilter("f");
        final HeldFilter g = new HeldFilter("g");
        final Connection a = new Connection(commit);
        final Connection b = new Connection(commit);
        final Connection c = new Connection(commit);
        a.send("+a1\r\n", f);
        final CountDownLatch first = f.nextSync();
        b.send("+b\r\n", f, g);
        c.send("+c\r\n", g);
        a.send("+a2\r\n", f);
        assertFalse(g.syncStarted(50), "no second commit while the first runs");
        f.hold = false;
        g.hold = false;
        first.countDown();
        await(a, "+a1\r\n+a2\r\n");
        await(b, "+b\r\n");
        await(c, "+c\r\n");
        assertEquals(2, commit.commits(), "three connections' writes made during the first commit: one more");
        f.nextSync().countDown();
        g.nextSync().countDown();
        assertFalse(f.syncStarted(50) || g.syncStarted(0), "each filter once in the shared commit");
    }

    @Test
    void aFilterStillInThePipelineIsSyncedAgainUntilItsElementsAreJudged() throws Exception
    {
        final HeldFilter f = new HeldFilter("f");
        f.hold = false;
        final Connection c = new Connection(commit);
        c.settled = false; // an element published to f has no verdict yet
        c.send("+ok\r\n", f); // (another command's reply)
        f.nextSync();
        await(c, "+ok\r\n");
        c.send(":1\r\n"); // the element's verdict, stored after that sync may have started
        f.nextSync();
        await(c, "+ok\r\n:1\r\n");
        c.settled = true;
        c.send(":0\r\n");
        f.nextSync();
        await(c, "+ok\r\n:1\r\n:0\r\n");
        c.send("+PONG\r\n");
        assertEquals("+ok\r\n:1\r\n:0\r\n+PONG\r\n", c.written(), "every element judged and synced: at once");
        assertFalse(f.syncStarted(50));
    }

    @Test
    void theNextCommitStartsBeforeTheLastOnesRepliesAreWritten() throws Exception
    {
        final HeldFilter f = new HeldFilter("f");
        final Connection a = new Connection(commit);
        final Connection b = new Connection(commit);
        final List<Long> startedAtWrite = new ArrayList<>();
        a.beforeWrite = () -> startedAtWrite.add(commit.started());
        a.send("+a\r\n", f);
        final CountDownLatch first = f.nextSync();
        b.send("+b\r\n", f); // held for the next commit
        first.countDown();
        await(a, "+a\r\n");
        assertEquals(List.of(2L), startedAtWrite, "+b's commit had started when +a was written");
        assertEquals("", b.written(), "+b waits for its own sync");
        f.nextSync().countDown();
        await(b, "+b\r\n");
        a.send("+PONG\r\n");
        b.send("+PONG\r\n");
        assertEquals("+a\r\n+PONG\r\n", a.written());
        assertEquals("+b\r\n+PONG\r\n", b.written());
    }

    @Test
    void aFailedSyncClosesItsConnectionsWhileTheNextCommitsRepliesWaitForTheirOwn() throws Exception
    {
        final HeldFilter f = new HeldFilter("f");
        final Connection a = new Connection(commit);
        final Connection b = new Connection(commit);
        a.send(":1\r\n", f);
        final CountDownLatch first = f.nextSync();
        b.send(":1\r\n", f); // during the first commit: the next one
        f.fail = true;
        first.countDown();
        final CountDownLatch second = f.nextSync(); // started although the first failed: b's write is in it
        awaitUnsynced(a);
        assertEquals("", a.written());
        assertEquals("", b.written(), "b's reply waits for its own commit");
        f.fail = false;
        second.countDown();
        await(b, ":1\r\n");
        assertEquals("", a.written(), "nothing ever acknowledged on the failed connection");
        assertEquals(1, commit.errors());
    }

    /** A change log whose forces the test holds, and records on which thread each ran. */
    private static final class HeldLog implements CommitLog
    {
        final BlockingQueue<CountDownLatch> started = new LinkedBlockingQueue<>();
        final List<String> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
        volatile boolean fail;
        /** The filters written through it (the others are synced by themselves). */
        final List<HeldFilter> holds = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void force()
        {
            threads.add(Thread.currentThread().getName());
            final CountDownLatch done = new CountDownLatch(1);
            started.add(done);
            try
            {
                assertTrue(done.await(20, TimeUnit.SECONDS), "the test let the force finish");
            }
            catch (final InterruptedException e)
            {
                throw new IllegalStateException(e);
            }
            if (fail)
            {
                throw new IllegalStateException("EIO (the test's)");
            }
        }

        @Override
        public boolean holds(final io.ddf.persistence.Syncable filter)
        {
            return holds.stream().anyMatch(h -> h.filter == filter);
        }

        @Override
        public Object directory()
        {
            return "log";
        }

        CountDownLatch nextForce() throws InterruptedException
        {
            final CountDownLatch force = started.poll(20, TimeUnit.SECONDS);
            assertTrue(force != null, "the log was forced");
            return force;
        }
    }

    @Test
    void aRoundOfLoggedWritesIsCommittedOnTheLoopItsRepliesHeldUntilTheForceReturns() throws Exception
    {
        final HeldLog log = new HeldLog();
        final HeldFilter f = new HeldFilter("f");
        log.holds.add(f);
        commit.throughLog(log);
        final String loopThread = on(() -> Thread.currentThread().getName());
        final Connection c = new Connection(commit);
        final Connection other = new Connection(commit);
        loop.execute(() ->
        {
            c.gate.wrote(f.filter);
            c.gate.send(Unpooled.copiedBuffer(":1\r\n", StandardCharsets.US_ASCII), false);
        });
        final CountDownLatch force = log.nextForce();
        assertEquals(List.of(loopThread), log.threads, "forced by the loop itself");
        assertEquals("", c.written.toString(), "held while the force runs");
        loop.execute(() -> other.gate.send(Unpooled.copiedBuffer("+PONG\r\n", StandardCharsets.US_ASCII), false));
        force.countDown();
        await(c, ":1\r\n");
        await(other, "+PONG\r\n"); // read once the loop's force returned
        assertFalse(f.syncStarted(50), "a filter in the log is not synced by itself");
        assertEquals(1, commit.commits());
    }

    @Test
    void aFailedForceOnTheLoopWithholdsTheRepliesAndClosesTheirConnection() throws Exception
    {
        final HeldLog log = new HeldLog();
        final HeldFilter f = new HeldFilter("f");
        log.holds.add(f);
        log.fail = true;
        commit.throughLog(log);
        final Connection c = new Connection(commit);
        final Connection bystander = new Connection(commit);
        loop.execute(() ->
        {
            c.gate.wrote(f.filter);
            c.gate.send(Unpooled.copiedBuffer(":1\r\n", StandardCharsets.US_ASCII), false);
            c.gate.send(Unpooled.copiedBuffer("+later\r\n", StandardCharsets.US_ASCII), false);
        });
        log.nextForce().countDown();
        awaitUnsynced(c);
        assertEquals("", c.written(), "no acknowledgement of a write whose record is not on the device");
        assertEquals(1, commit.errors());
        assertEquals(0, commit.commits());
        bystander.send("+PONG\r\n");
        assertEquals("+PONG\r\n", bystander.written(), "the others go on");
    }

    @Test
    void aRoundWithAFilterNotInTheLogIsCommittedOnTheCommitThread() throws Exception
    {
        final HeldLog log = new HeldLog();
        final HeldFilter logged = new HeldFilter("logged");
        final HeldFilter own = new HeldFilter("own"); // a kind the engine does not log: its pages are synced
        log.holds.add(logged);
        commit.throughLog(log);
        final String loopThread = on(() -> Thread.currentThread().getName());
        final Connection c = new Connection(commit);
        c.send(":1\r\n", logged, own);
        log.nextForce().countDown();
        final CountDownLatch sync = own.nextSync();
        assertEquals("", c.written(), "held until the filter's own sync returns; the loop goes on meanwhile");
        sync.countDown();
        await(c, ":1\r\n");
        assertEquals(1, log.threads.size());
        assertFalse(loopThread.equals(log.threads.get(0)), "forced off the loop: " + log.threads);
        assertFalse(logged.syncStarted(50), "the logged filter is forced with the log, not synced");
    }

    /** A connection whose first round wrote a filter in the log and one outside it: forced, its sync held. */
    private record MixedRound(HeldLog log, HeldFilter logged, Connection connection, CountDownLatch sync)
    {
    }

    /** @param reply the first round's reply, held by its commit (the log forced, the other filter's sync held). */
    private MixedRound mixedRound(final String reply) throws Exception
    {
        final HeldLog log = new HeldLog();
        final HeldFilter logged = new HeldFilter("logged");
        final HeldFilter own = new HeldFilter("own");
        log.holds.add(logged);
        commit.throughLog(log);
        final Connection c = new Connection(commit);
        c.send(reply, logged, own);
        log.nextForce().countDown();
        return new MixedRound(log, logged, c, own.nextSync());
    }

    /**
     * A connection's round with a filter not in the log commits on the thread; its next round, all in the log, is
     * started by the first's completion and commits on the loop within it, before the first's replies are written:
     * both commits' replies leave, in order (the second's replaced the first's before: +a was lost).
     */
    @Test
    void repliesOfACommitOnTheThreadLeaveBeforeThoseOfTheNextCommittedOnTheLoopWithinItsCompletion() throws Exception
    {
        final MixedRound first = mixedRound("+a\r\n");
        final HeldLog log = first.log();
        final Connection c = first.connection();
        c.send("+b\r\n", first.logged());
        first.sync().countDown();
        log.nextForce().countDown(); // the second commit's force, on the loop
        await(c, "+a\r\n+b\r\n");
        assertEquals(2, commit.commits());
    }

    /** As above, the second commit failing: the first's replies still leave, then the connection closes. */
    @Test
    void aFailedCommitOnTheLoopStillLetsTheLandedRepliesOfTheOneBeforeLeaveFirst() throws Exception
    {
        final MixedRound first = mixedRound("+a\r\n");
        final HeldLog log = first.log();
        final Connection c = first.connection();
        log.fail = true; // past the first force
        c.send("+b\r\n", first.logged());
        first.sync().countDown();
        log.nextForce().countDown();
        awaitUnsynced(c);
        assertEquals("+a\r\n", c.written(), "the landed commit's reply, and none of the failed one's");
    }

    @Test
    void aFailedSyncDropsTheRepliesAndClosesTheirConnection() throws Exception
    {
        final HeldFilter f = new HeldFilter("f");
        f.fail = true;
        final Connection c = new Connection(commit);
        final Connection bystander = new Connection(commit);
        c.send(":1\r\n", f);
        c.send("+later\r\n");
        f.nextSync().countDown();
        awaitUnsynced(c);
        assertEquals("", c.written(), "no acknowledgement of a write that is not on the device");
        c.send(":1\r\n");
        assertEquals("", c.written(), "nothing more from it");
        assertEquals(1, commit.errors());
        bystander.send("+PONG\r\n");
        assertEquals("+PONG\r\n", bystander.written(), "the others go on");
    }

    @Test
    void aClosingReplyHeldClosesAfterItIsWritten() throws Exception
    {
        final HeldFilter f = new HeldFilter("f");
        final Connection c = new Connection(commit);
        c.send(":1\r\n", f);
        on(() ->
        {
            c.gate.send(Unpooled.copiedBuffer("+OK\r\n", StandardCharsets.US_ASCII), true);
            return null;
        });
        assertFalse(c.closed.get());
        f.nextSync().countDown();
        await(c, ":1\r\n+OK\r\n");
        assertTrue(c.closed.get());
    }

    @Test
    void noneWaitsForNothing() throws Exception
    {
        final HeldFilter f = new HeldFilter("f");
        final Connection c = new Connection(DurabilityBarrier.NONE);
        c.send(":1\r\n", f);
        assertEquals(":1\r\n", c.written());
        assertFalse(f.syncStarted(20));
    }

    @Test
    void shuttingDownReleasesWhatACommitHolds() throws Exception
    {
        final HeldFilter f = new HeldFilter("f");
        final Connection c = new Connection(commit);
        c.send(":1\r\n", f);
        final CountDownLatch sync = f.nextSync();
        final List<Throwable> failures = new ArrayList<>();
        final Thread closer = new Thread(() ->
        {
            try
            {
                commit.awaitIdle(20_000);
            }
            catch (final RuntimeException e)
            {
                failures.add(e);
            }
        });
        closer.start();
        sync.countDown();
        closer.join(20_000);
        assertFalse(closer.isAlive());
        assertEquals(":1\r\n", c.written(), "awaitIdle returned once the held replies were written");
        assertNull(failures.isEmpty() ? null : failures.get(0));
    }
}
