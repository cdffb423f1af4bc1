package io.ddf.bench.jmh;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * JMH state shared by a benchmark's threads: the key pool for the {@code keyBytes} parameter (seed printed), and
 * the threads' {@link ThreadKeys}, whose verdict counts it prints after each iteration (the fraction judged
 * duplicate says which code path the iteration mostly timed).
 */
@State(Scope.Benchmark)
public class Keys
{
    /** Seed of every pool, so every implementation sees the same keys. */
    public static final long SEED = 20_261_122L;

    /** Bytes per key. */
    @Param({"8", "16", "64"})
    public int keyBytes;

    KeyPool pool;
    final List<ThreadKeys> sources = new CopyOnWriteArrayList<>();
    private long reportedCalls;
    private long reportedDuplicates;

    /** Generates the pool. */
    @Setup(Level.Trial)
    public void setup()
    {
        pool = new KeyPool(keyBytes, SEED);
        sources.clear();
        reportedCalls = 0;
        reportedDuplicates = 0;
        System.out.printf("keys: %d of %d bytes, seed %d, salted per pass%n", pool.count(), keyBytes, SEED);
    }

    /** Prints the iteration's calls and duplicate fraction over all threads (runs after the threads stop). */
    @TearDown(Level.Iteration)
    public void report()
    {
        long calls = 0;
        long duplicates = 0;
        for (final ThreadKeys source : sources)
        {
            calls += source.calls;
            duplicates += source.duplicates;
        }
        final long iterationCalls = calls - reportedCalls;
        final long iterationDuplicates = duplicates - reportedDuplicates;
        reportedCalls = calls;
        reportedDuplicates = duplicates;
        if (iterationCalls > 0)
        {
            System.out.printf(Locale.ROOT, "(%d calls by %d threads, %.2f%% judged duplicate) ", iterationCalls,
                sources.size(), 100.0 * iterationDuplicates / iterationCalls);
        }
    }

    /**
     * @param source a thread's keys, counted from now on.
     * @return its index among the threads.
     */
    int register(final ThreadKeys source)
    {
        sources.add(source);
        return sources.size() - 1;
    }
}
