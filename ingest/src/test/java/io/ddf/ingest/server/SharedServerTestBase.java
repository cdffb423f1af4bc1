package io.ddf.ingest.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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

    @BeforeAll
    static void startServer()
    {
        server = new TestServer(dir.resolve("data"), c -> { });
    }

    @AfterAll
    static void stopServer()
    {
        server.close();
    }
}
