package io.ddf.engine.composite;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.RepeatedTest;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import static io.ddf.engine.composite.AgedCuckooPromiseTest.CAPACITY;
import static io.ddf.engine.composite.AgedCuckooPromiseTest.T0;
import static io.ddf.engine.composite.AgedCuckooPromiseTest.WINDOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * aged-cuckoo's core in shared mode, four threads at the promised rate in all (event time from one shared counter, a
 * quarter of the elements from a pool every thread streams): no insert failure, and every element answered UNSEEN
 * whose window has not passed at the end answers DUPLICATE. Repeated: the races it looks for (a turn against an
 * expiry, a relocation, the sweep) need the threads to meet.
 */
class AgedCuckooConcurrencyTest
{
    @RepeatedTest(8)
    void noLiveElementIsLost() throws InterruptedException
    {
        final int threads = 4;
        final long total = 6 * CAPACITY;
        final AtomicLong counter = new AtomicLong();
        final long[] pool = new SplittableRandom(TestSeed.seed() ^ 0x9001).longs(CAPACITY).toArray();
        final ConcurrentLinkedQueue<long[]> added = new ConcurrentLinkedQueue<>();
        try (AgedCuckooPromiseTest.Fixture f = new AgedCuckooPromiseTest.Fixture(CAPACITY, 16, 0.01, false))
        {
            final List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                final SplittableRandom random = new SplittableRandom(TestSeed.seed() + t);
                workers.add(new Thread(() ->
                {
                    for (long i = counter.getAndIncrement(); i < total; i = counter.getAndIncrement())
                    {
                        final long time = T0 + i * WINDOW / CAPACITY;
                        final long element = random.nextInt(4) == 0 ? pool[(int)(i / 4 % pool.length)] :
                            random.nextLong();
                        if (!f.core.stream(element, time))
                        {
                            added.add(new long[] {element, time});
                        }
                    }
                }));
            }
            workers.forEach(Thread::start);
            for (final Thread worker : workers)
            {
                worker.join();
            }
            final long now = f.core.window().filterTime();
            long inside = 0;
            long lost = 0;
            for (final long[] e : added)
            {
                if (now < e[1] + WINDOW)
                {
                    inside++;
                    lost += f.core.contains(e[0]) ? 0 : 1;
                }
            }
            final String what = lost + " of " + inside + " lost, " + f.core.failures() + " insert failures, " +
                f.core.window() + "; " + TestSeed.replayHint();
            assertTrue(inside > CAPACITY / 2, what);
            assertEquals(0, f.core.failures(), what);
            assertEquals(0, lost, what);
        }
    }
}
