package io.ddf.engine;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Many threads on one filter whose {@code stream} is atomic per element: each distinct key gets exactly one UNSEEN
 * across all threads. (Kinds whose update spans several words promise less, and say so in their Javadoc.)
 */
class ConcurrentStreamTest extends EngineTestBase
{
    private static final int THREADS = 4;
    private static final int KEYS = 1 << 12;
    private static final int ROUNDS = 20;

    static List<FilterConfigs.Config> configs()
    {
        return FilterConfigs.all().stream().filter(FilterConfigs.Config::atomicPerElement).toList();
    }

    /**
     * For a quotient filter, keys that fall in distinct rows: nothing can then be evicted (a row only ever holds copies of its one key)
     * and no key can be a false positive of another, so exactly one UNSEEN per key is the only correct outcome.
     * Rows packed several to a word still contend on that word's compare-and-swap.
     */
    private static long[] keysInDistinctRows(final DuplicateFilter filter, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        if (!filter.partitioned())
        {
            return random.longs(KEYS).toArray();
        }
        final java.util.Set<Long> rows = new java.util.HashSet<>();
        final long[] keys = new long[KEYS];
        int count = 0;
        while (count < KEYS)
        {
            final long key = random.nextLong();
            if (rows.add(filter.partition(filter.hash(key))))
            {
                keys[count++] = key;
            }
        }
        return keys;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void everyDistinctKeyGetsExactlyOneUnseen(final FilterConfigs.Config config) throws Exception
    {
        final long seed = TestSeed.seed();
        for (int round = 0; round < ROUNDS; round++)
        {
            final AtomicIntegerArray unseen = new AtomicIntegerArray(KEYS);
            try (DuplicateFilter filter = config.build(1 << 16, null).create())
            {
                final long[] keys = keysInDistinctRows(filter, seed + round);
                final CyclicBarrier start = new CyclicBarrier(THREADS);
                final Thread[] threads = new Thread[THREADS];
                final Throwable[] failure = new Throwable[1];
                for (int t = 0; t < THREADS; t++)
                {
                    final int offset = t * 97;
                    threads[t] = new Thread(() ->
                    {
                        try
                        {
                            start.await();
                            for (int i = 0; i < KEYS; i++)
                            {
                                // Each thread walks the keys from a different start, so threads collide on keys.
                                final int index = (i + offset) % KEYS;
                                if (filter.stream(keys[index]) == Verdict.UNSEEN)
                                {
                                    unseen.incrementAndGet(index);
                                }
                            }
                        }
                        catch (final Throwable e)
                        {
                            failure[0] = e;
                        }
                    });
                    threads[t].start();
                }
                for (final Thread thread : threads)
                {
                    thread.join();
                }
                if (failure[0] != null)
                {
                    throw new AssertionError(failure[0]);
                }
                for (int i = 0; i < KEYS; i++)
                {
                    assertEquals(1, unseen.get(i), "key " + i + " round " + round + " seed=" + seed);
                }
                assertEquals((long)THREADS * KEYS, filter.elements());
                assertEquals((long)(THREADS - 1) * KEYS, filter.duplicates());
            }
        }
    }
}
