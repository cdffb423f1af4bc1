package io.ddf.ingest.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * One in-process daemon with the default configuration for all the tests of a class: started in the class's
 * temporary directory before its first test, closed after its last. The fields are static and shared by the
 * subclasses, which JUnit runs one class at a time here (the build configures no parallel execution), each with
 * its own directory and daemon.
 */
abstract class SharedServerTestBase
{
    @TempDir
    static Path dir;
    static TestServer server;

    /**
     * Starts the daemon as users run it, or, for a suite marked {@link Forgetting} (one about ddf's fixed-size
     * filters), with {@code --past-capacity forget}.
     */
    @BeforeAll
    static void startServer(final TestInfo info)
    {
        final boolean forgetting = info.getTestClass().map(c -> c.isAnnotationPresent(Forgetting.class))
            .orElse(false);
        server = new TestServer(dir.resolve("data"), forgetting ? TestServer::forget : c -> { });
    }

    /**
     * Marks a suite about ddf's fixed-size filters: its shared daemon runs {@code --past-capacity forget} (a missing
     * key, or BF.RESERVE without a scaling KIND, gets a fixed-size filter); every other suite runs the defaults.
     */
    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
    @java.lang.annotation.Target(java.lang.annotation.ElementType.TYPE)
    @interface Forgetting
    {
    }

    @AfterAll
    static void stopServer()
    {
        server.close();
    }
}
