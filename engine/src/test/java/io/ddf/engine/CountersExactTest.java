package io.ddf.engine;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code elements()} and {@code duplicates()} are exact once the writers are quiet, with any number of threads:
 * fewer than the counter stripes (each owns one), more than them (the overflow stripe), and threads that end
 * and are replaced (their stripes are taken over). In single-writer mode the threads own disjoint partitions, as
 * a pipeline's inserters do.
 */
class CountersExactTest extends EngineTestBase
{
    private static final int PER_THREAD = 50_000;

    @ParameterizedTest(name = "{0} threads, shared")
    @ValueSource(ints = {2, 4, 24})
    void sharedModeCountsEveryVerdictOfEveryThread(final int threads) throws Exception
    {
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).memoryBits(1 << 16).seed(5).create())
        {
            final long[] counts = run(filter, threads, false);
            assertEquals(counts[0], filter.elements());
            assertEquals(counts[1], filter.duplicates());
            // a second generation of threads: the first ones are dead, their stripes reclaimed, counts kept
            final long[] more = run(filter, threads, false);
            assertEquals(counts[0] + more[0], filter.elements());
            assertEquals(counts[1] + more[1], filter.duplicates());
        }
    }

    @ParameterizedTest(name = "{0} threads on disjoint rows, single-writer")
    @ValueSource(ints = {2, 4, 24})
    void singleWriterModeCountsEveryVerdictOfThreadsOwningDisjointRows(final int threads) throws Exception
    {
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).memoryBits(1 << 16).seed(5).singleWriter()
            .create())
        {
            final long[] counts = run(filter, threads, true);
            assertEquals(counts[0], filter.elements());
            assertEquals(counts[1], filter.duplicates());
        }
    }

    /** @return elements streamed and DUPLICATE verdicts seen, over all threads. */
    private static long[] run(final DuplicateFilter filter, final int threads, final boolean ownRows)
        throws Exception
    {
        final long seed = TestSeed.seed();
        final AtomicLong elements = new AtomicLong();
        final AtomicLong duplicates = new AtomicLong();
        final CyclicBarrier start = new CyclicBarrier(threads);
        final Thread[] workers = new Thread[threads];
        final Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++)
        {
            final int index = t;
            workers[t] = new Thread(() ->
            {
                try
                {
                    // keys from a small range: many duplicates, and every thread's keys overlap the others'
                    final SplittableRandom random = new SplittableRandom(seed + index);
                    start.await();
                    long streamed = 0;
                    long dup = 0;
                    while (streamed < PER_THREAD)
                    {
                        final long key = random.nextLong(20_000);
                        if (ownRows && filter.partition(filter.hash(key)) % threads != index)
                        {
                            continue;
                        }
                        dup += filter.stream(key) == Verdict.DUPLICATE ? 1 : 0;
                        streamed++;
                    }
                    elements.addAndGet(streamed);
                    duplicates.addAndGet(dup);
                }
                catch (final Throwable e)
                {
                    failure[0] = e;
                }
            });
            workers[t].start();
        }
        for (final Thread worker : workers)
        {
            worker.join();
        }
        assertEquals(null, failure[0]);
        assertTrue(duplicates.get() > 0 && duplicates.get() < elements.get(), "both verdicts occur");
        return new long[] {elements.get(), duplicates.get()};
    }
}
