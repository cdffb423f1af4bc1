package io.ddf.ingest.dispatch;

import io.netty.util.concurrent.FastThreadLocalThread;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A command's counters (INFO commandstats), added to by many threads in cells of their own: the sums are exact, a
 * reset starts at 0.
 */
class CommandTest
{
    @Test
    void sumsEveryThreadsAddsAndResetsToZero() throws InterruptedException
    {
        final Command counters = Command.keyless("echo", 2, List.of(), "connection", "", (session, args) -> { });
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++)
        {
            // event loops are FastThreadLocalThreads; a plain thread takes the slower path, and counts the same
            final Runnable adds = () ->
            {
                for (int i = 0; i < 100_000; i++)
                {
                    counters.ran(3, false);
                }
            };
            threads.add(t % 2 == 0 ? new FastThreadLocalThread(adds) : new Thread(adds));
        }
        threads.forEach(Thread::start);
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertEquals(400_000, counters.calls());
        assertEquals(1_200_000, counters.nanos());
        assertEquals(0, counters.failedCalls());
        counters.resetStats();
        assertEquals(0, counters.calls());
        counters.ran(5, true);
        counters.rejected();
        assertEquals(1, counters.calls());
        assertEquals(5, counters.nanos());
        assertEquals(1, counters.failedCalls());
        assertEquals(1, counters.rejectedCalls());
    }
}
