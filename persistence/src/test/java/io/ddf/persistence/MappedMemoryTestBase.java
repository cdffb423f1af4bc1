package io.ddf.persistence;

import net.openhft.chronicle.core.io.AbstractCloseable;
import net.openhft.chronicle.core.io.AbstractReferenceCounted;
import net.openhft.chronicle.core.io.BackgroundResourceReleaser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

import java.util.Random;

/**
 * Base for tests that map memory through Chronicle (directly or via {@link FilterFile}): fails a test that
 * leaves a mapping, a Chronicle reference or a Chronicle closeable unreleased. Engine and ingest tests can
 * extend it from this module's test-jar.
 */
public abstract class MappedMemoryTestBase
{
    static
    {
        ChronicleSettings.apply(); // before any Chronicle class loads, so no banner in test output
    }

    private String testName = "test";

    /**
     * Turns on Chronicle's reference and closeable tracing, so what this test creates is tracked.
     *
     * @param info the running test.
     */
    @BeforeEach
    protected void enableMappedMemoryTracing(final TestInfo info)
    {
        testName = info.getDisplayName();
        AbstractReferenceCounted.enableReferenceTracing();
        AbstractCloseable.enableCloseableTracing();
    }

    /**
     * Fails the test when anything it mapped or reserved through Chronicle is still held.
     */
    @AfterEach
    protected void assertMappedMemoryReleased()
    {
        // Chronicle releases mapped files on a background thread; let it finish first.
        BackgroundResourceReleaser.releasePendingResources();
        try
        {
            AbstractReferenceCounted.assertReferencesReleased();
            AbstractCloseable.assertCloseablesClosed();
        }
        finally
        {
            AbstractReferenceCounted.disableReferenceTracing();
            AbstractCloseable.disableCloseableTracing();
        }
    }

    /**
     * A random source whose seed is printed, so a failure can be replayed with {@code -Dddf.test.seed=...}.
     *
     * @return a seeded random.
     */
    protected Random seededRandom()
    {
        final long seed = Long.getLong("ddf.test.seed", System.nanoTime());
        System.out.println(testName + ": random seed " + seed + " (replay with -Dddf.test.seed=" + seed + ")");
        return new Random(seed);
    }
}
