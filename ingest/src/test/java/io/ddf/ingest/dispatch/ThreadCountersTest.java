package io.ddf.ingest.dispatch;

import io.netty.util.concurrent.FastThreadLocalThread;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Counters added to by many threads, each in cells of its own: the sums are exact, and a reset starts them at 0. */
class ThreadCountersTest
{
    @Test
    void sumsEveryThreadsAddsAndResetsToZero() throws InterruptedException
    {
        final ThreadCounters counters = new ThreadCounters(2);
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++)
        {
            // event loops are FastThreadLocalThreads; a plain thread takes the slower path, and counts the same
            final Runnable adds = () ->
            {
                for (int i = 0; i < 100_000; i++)
                {
                    final long[] cells = counters.cells();
                    ThreadCounters.add(cells, 0, 1);
                    ThreadCounters.add(cells, 1, 3);
                }
            };
            threads.add(t % 2 == 0 ? new FastThreadLocalThread(adds) : new Thread(adds));
        }
        threads.forEach(Thread::start);
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertEquals(400_000, counters.sum(0));
        assertEquals(1_200_000, counters.sum(1));
        counters.reset();
        assertEquals(0, counters.sum(0));
        ThreadCounters.add(counters.cells(), 0, 5);
        assertEquals(5, counters.sum(0));
        assertEquals(0, counters.sum(1));
    }
}
