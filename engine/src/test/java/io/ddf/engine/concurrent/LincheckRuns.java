package io.ddf.engine.concurrent;

import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;

/**
 * The two Lincheck runs every linearizability test makes, with budgets bounded so that the whole package runs in
 * well under two minutes on two cores: scenarios of 2 threads × 3 operations (plus 2 before and 1 after), which is
 * where small-table conflicts are found, each run many times.
 *
 * <p>Stress mode runs the scenario on real threads; it sees every memory access, including the off-heap ones of
 * {@code MappedWords}. Model checking explores interleavings at the switch points Lincheck instruments; calls into
 * {@code Unsafe} on raw addresses are among them, so each word access of a core is a point where the checker may
 * switch threads.
 */
final class LincheckRuns
{
    private LincheckRuns()
    {
    }

    static void stress(final Class<?> test)
    {
        LinChecker.check(test, new StressOptions()
            .iterations(5)
            .invocationsPerIteration(500)
            .threads(2)
            .actorsPerThread(3)
            .actorsBefore(2)
            .actorsAfter(1));
    }

    static void modelChecking(final Class<?> test)
    {
        LinChecker.check(test, new ModelCheckingOptions()
            .iterations(5)
            .invocationsPerIteration(100)
            .hangingDetectionThreshold(30) // a thread spinning on a lock another holds: switch early
            .threads(2)
            .actorsPerThread(3)
            .actorsBefore(2)
            .actorsAfter(1));
    }
}
