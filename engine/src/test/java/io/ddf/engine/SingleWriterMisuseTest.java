package io.ddf.engine;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Two threads updating the same rows of a single-writer filter break its promise: the contract is that this may
 * lose updates, and a kind that checks its own invariants may refuse with an IllegalStateException (the exact
 * window's table and ring, updated under a sequence lock that single-writer mode does not lock), but it never
 * hangs (no lock bit or sequence left odd), never fails otherwise, and leaves a file that reopens. The counters
 * stay exact even then: each thread counts in a stripe of its own, and a refused element is not counted.
 */
class SingleWriterMisuseTest extends EngineTestBase
{
    private static final int PER_THREAD = 30_000;
    /** How long the writers may take before the test reports them hung (within the hang guard's 60 s). */
    private static final int JOIN_SECONDS = 45;

    @org.junit.jupiter.api.io.TempDir
    Path dir;

    static List<FilterConfigs.Config> configs()
    {
        return FilterConfigs.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    @Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard: well under a second per config when idle
    void twoWritersOnTheSameRowsLoseAtMostUpdates(final FilterConfigs.Config config) throws Exception
    {
        final Path file = dir.resolve("misused.ddf");
        final long seed = TestSeed.seed();
        final long[] streamed = new long[2];
        final DuplicateFilter filter = config.build(2_000, file).singleWriter().create();
        boolean writersStopped = false;
        try
        {
            final CyclicBarrier start = new CyclicBarrier(2);
            final Throwable[] failure = new Throwable[2];
            final Thread[] writers = new Thread[2];
            for (int t = 0; t < 2; t++)
            {
                final int index = t;
                writers[t] = new Thread(() ->
                {
                    try
                    {
                        final SplittableRandom random = new SplittableRandom(seed + index);
                        start.await();
                        for (int i = 0; i < PER_THREAD; i++)
                        {
                            final long key = random.nextLong(5_000);
                            filter.stream(key);
                            streamed[index]++;
                            filter.contains(key ^ 1);
                        }
                    }
                    catch (final IllegalStateException e)
                    {
                        // a kind refusing damage it detected: allowed, and the thread stops as a caller would
                    }
                    catch (final Throwable e)
                    {
                        failure[index] = e;
                    }
                });
                writers[t].setDaemon(true);
                writers[t].start();
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(JOIN_SECONDS);
            for (final Thread writer : writers)
            {
                writer.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
            for (final Thread writer : writers)
            {
                assertFalse(writer.isAlive(), () -> "a writer hangs (the filter stays mapped for it):" +
                    stackTrace(writer));
            }
            writersStopped = true;
            for (final Throwable f : failure)
            {
                assertNull(f, () -> stackTrace(f));
            }
            assertEquals(streamed[0] + streamed[1], filter.elements());
        }
        finally
        {
            // Closing unmaps the file: never under a writer still running (a hung one, or one the timeout left),
            // which would then read unmapped memory and crash the JVM. Such a filter is leaked instead.
            if (writersStopped)
            {
                filter.close();
            }
        }
        try (DuplicateFilter reopened = Filters.open(file))
        {
            assertEquals(streamed[0] + streamed[1], reopened.elements());
        }
    }

    private static String stackTrace(final Thread thread)
    {
        final StringBuilder text = new StringBuilder();
        for (final StackTraceElement frame : thread.getStackTrace())
        {
            text.append("\n\tat ").append(frame);
        }
        return text.toString();
    }

    private static String stackTrace(final Throwable failure)
    {
        final java.io.StringWriter text = new java.io.StringWriter();
        failure.printStackTrace(new java.io.PrintWriter(text));
        return text.toString();
    }
}
