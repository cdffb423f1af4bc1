package io.ddf.persistence;

import io.ddf.persistence.testing.TestSeed;
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

    /**
     * Turns on Chronicle's reference and closeable tracing, so what this test creates is tracked.
     *
     * @param info the running test (kept for subclasses that call this directly).
     */
    @BeforeEach
    protected void enableMappedMemoryTracing(final TestInfo info)
    {
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
     * A random source seeded by the suite's one seed policy ({@link TestSeed}).
     *
     * @return a seeded random.
     */
    protected Random seededRandom()
    {
        return TestSeed.random();
    }
}
