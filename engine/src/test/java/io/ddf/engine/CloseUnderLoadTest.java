package io.ddf.engine;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Closing a filter while other threads stream into it (issue 30): {@code close()} and {@code Filters.closeAll} wait
 * for the calls in flight and refuse new ones before they seal, so every file closed under load reopens clean, sealed
 * with the checksum of what it holds, and counts exactly the elements whose calls returned. Hundreds of rounds, each
 * closing at a random moment (the seed policy: {@code -Dddf.test.seed}); the failures of all rounds are counted and
 * reported together ("N of R files lost").
 */
class CloseUnderLoadTest extends EngineTestBase
{
    private static final int ROUNDS = 200;
    private static final int STREAMERS = 3;
    /** The longest a round streams before it closes: long enough that every streamer is under way. */
    private static final long MAX_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(3);

    @TempDir
    Path dir;

    /** Several threads streaming into one shared filter, single calls and batches, closed at a random moment. */
    @Test
    void sharedFilterClosedUnderStreamsReopensCleanEveryRound() throws Exception
    {
        rounds("shared", false, STREAMERS, ROUNDS);
    }

    /**
     * More streamers than the filter has stripes (16, of which one is the overflow): the calls of the threads beyond
     * the fifteenth each take a slot of the overflow's pool, and close must wait for those too.
     */
    @Test
    void overflowStripeStreamersClosedReopenCleanEveryRound() throws Exception
    {
        rounds("overflow", false, 20, ROUNDS / 4);
    }

    /**
     * Single-writer mode, where the guard must take no locked instruction: one thread streams (the mode's promise),
     * others only read, and another closes.
     */
    @Test
    void singleWriterFilterClosedUnderStreamsReopensCleanEveryRound() throws Exception
    {
        rounds("single-writer", true, 1, ROUNDS);
    }

    /** {@code Filters.closeAll}, as a daemon stops: several filters, each streamed into, closed together. */
    @Test
    void closeAllUnderStreamsReopensEveryFileClean() throws Exception
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final List<String> lost = new ArrayList<>();
        final int rounds = ROUNDS / 4;
        for (int round = 0; round < rounds; round++)
        {
            final List<DuplicateFilter> filters = new ArrayList<>();
            final List<Load> loads = new ArrayList<>();
            for (int f = 0; f < 3; f++)
            {
                final DuplicateFilter filter = builder(dir.resolve("all-" + round + "-" + f + ".ddf"), false).create();
                filters.add(filter);
                loads.add(new Load(filter, 2, random.nextLong(), false));
            }
            loads.forEach(Load::start);
            loads.forEach(Load::awaitStarted);
            LockSupport.parkNanos(random.nextLong(MAX_DELAY_NANOS));
            Filters.closeAll(filters);
            for (int f = 0; f < filters.size(); f++)
            {
                final long acknowledged = loads.get(f).join();
                reopen(filters.get(f).path(), acknowledged, "round " + round + " file " + f, lost);
            }
        }
        assertNoneLost(lost, rounds * 3);
    }

    private void rounds(final String name, final boolean singleWriter, final int streamers, final int rounds)
        throws Exception
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        final List<String> lost = new ArrayList<>();
        for (int round = 0; round < rounds; round++)
        {
            final Path path = dir.resolve(name + "-" + round + ".ddf");
            final DuplicateFilter filter = builder(path, singleWriter).create();
            final Load load = new Load(filter, streamers, random.nextLong(), singleWriter);
            load.start();
            load.awaitStarted();
            LockSupport.parkNanos(random.nextLong(MAX_DELAY_NANOS));
            filter.close();
            reopen(path, load.join(), "round " + round, lost);
        }
        assertNoneLost(lost, rounds);
    }

    private static FilterBuilder builder(final Path path, final boolean singleWriter)
    {
        final FilterBuilder builder = Filters.builder(FilterKind.QHT).rows(1 << 14).buckets(4).fingerprintBits(16)
            .file(path);
        return singleWriter ? builder.singleWriter() : builder;
    }

    /**
     * Opens the file again: it must be sealed (its checksum matched: {@link LastClose.Kind#CLEAN}) and count every
     * element whose call returned, no more. What is wrong is added to {@code lost}.
     */
    private static void reopen(final Path path, final long acknowledged, final String round, final List<String> lost)
    {
        try (DuplicateFilter reopened = Filters.open(path))
        {
            if (reopened.lastClose().kind() != LastClose.Kind.CLEAN)
            {
                lost.add(round + ": reopened as " + reopened.lastClose().kind() + ", not CLEAN");
            }
            else if (reopened.elements() != acknowledged)
            {
                lost.add(round + ": " + reopened.elements() + " elements counted, " + acknowledged + " acknowledged");
            }
        }
        catch (final RuntimeException e)
        {
            lost.add(round + ": " + e);
        }
    }

    private static void assertNoneLost(final List<String> lost, final int files)
    {
        if (!lost.isEmpty())
        {
            fail(lost.size() + " of " + files + " files lost (" + TestSeed.replayHint() + "); the first: " +
                String.join("\n", lost.subList(0, Math.min(5, lost.size()))));
        }
    }

    /**
     * Threads streaming random elements (single calls and batches of 64) into a filter until it refuses them as
     * closed, counting the elements of every call that returned; in single-writer mode one streams and the others only
     * read ({@code contains}). Anything but the refusal of a closed filter fails the round.
     */
    private static final class Load
    {
        private final DuplicateFilter filter;
        private final Thread[] threads;
        private final CountDownLatch started;
        private final AtomicLong acknowledged = new AtomicLong();
        private final AtomicReference<Throwable> unexpected = new AtomicReference<>();

        Load(final DuplicateFilter filter, final int streamers, final long seed, final boolean readersBeside)
        {
            this.filter = filter;
            final int readers = readersBeside ? 2 : 0;
            this.threads = new Thread[streamers + readers];
            this.started = new CountDownLatch(threads.length);
            final SplittableRandom seeds = new SplittableRandom(seed);
            for (int t = 0; t < threads.length; t++)
            {
                final SplittableRandom random = seeds.split();
                final boolean writes = t < streamers;
                threads[t] = new Thread(() -> run(random, writes), "close-under-load-" + t);
            }
        }

        void start()
        {
            for (final Thread thread : threads)
            {
                thread.start();
            }
        }

        void awaitStarted()
        {
            try
            {
                assertTrue(started.await(10, TimeUnit.SECONDS), "streamers did not start");
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }

        private void run(final SplittableRandom random, final boolean writes)
        {
            final long[] batch = new long[64];
            final boolean[] verdicts = new boolean[batch.length];
            started.countDown();
            try
            {
                while (true)
                {
                    if (!writes)
                    {
                        filter.contains(random.nextLong());
                    }
                    else if (random.nextInt(8) == 0)
                    {
                        for (int i = 0; i < batch.length; i++)
                        {
                            batch[i] = random.nextLong(1 << 20);
                        }
                        filter.stream(batch, 0, batch.length, verdicts);
                        acknowledged.addAndGet(batch.length);
                    }
                    else
                    {
                        filter.stream(random.nextLong(1 << 20));
                        acknowledged.incrementAndGet();
                    }
                }
            }
            catch (final IllegalStateException closed)
            {
                if (!String.valueOf(closed.getMessage()).contains("closed"))
                {
                    unexpected.compareAndSet(null, closed);
                }
            }
            catch (final Throwable e)
            {
                unexpected.compareAndSet(null, e);
            }
        }

        /** @return the elements acknowledged, once every thread has stopped. */
        long join() throws InterruptedException
        {
            for (final Thread thread : threads)
            {
                thread.join(TimeUnit.SECONDS.toMillis(30));
                assertFalse(thread.isAlive(), thread.getName() + " still runs after close");
            }
            if (unexpected.get() != null)
            {
                throw new AssertionError("a streamer failed otherwise than by a refusal of the closed filter",
                    unexpected.get());
            }
            return acknowledged.get();
        }
    }
}
