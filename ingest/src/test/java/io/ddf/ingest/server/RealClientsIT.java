package io.ddf.ingest.server;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The client libraries RedisBloom users run, driving every BF.* (and CF.*) helper they have against a daemon
 * this test starts: redis-py ({@code src/test/clients/redis_py_test.py}) and node-redis with @redis/bloom
 * ({@code node_redis_test.cjs}), each in RESP2 and, when the server speaks it, RESP3. The clients live in the
 * directory {@code src/test/clients/setup.sh} fills (DDF_CLIENTS_DIR, default {@code target/clients});
 * {@code .ci/run} runs it. Outside CI a missing client skips the test, loudly; with CI=true it fails.
 */
class RealClientsIT
{
    private static final Path SCRIPTS = Path.of("src/test/clients");
    private static final long TIMEOUT_SECONDS = 90;

    @TempDir
    Path dataDir;

    private static Path clientsDir()
    {
        final String env = System.getenv("DDF_CLIENTS_DIR");
        return Path.of(env != null && !env.isEmpty() ? env : "target/clients").toAbsolutePath();
    }

    /** Skips (printing why) when a client is not installed, except on CI, where that fails. */
    private static void requireInstalled(final Path path, final String what)
    {
        if (Files.exists(path))
        {
            return;
        }
        final String message = what + " is not installed at " + path + ": run ingest/src/test/clients/setup.sh" +
            " (it prints the directory to pass as DDF_CLIENTS_DIR)";
        if ("true".equals(System.getenv("CI")))
        {
            fail(message + " (CI=true: .ci/run installs it)");
        }
        System.err.println("!!! SKIPPED: " + message);
        Assumptions.assumeTrue(false, message);
    }

    private static String expectBfcf() throws IOException
    {
        final Properties expectations = new Properties();
        try (InputStream in = Files.newInputStream(SCRIPTS.resolve("expectations.properties")))
        {
            expectations.load(in);
        }
        final String value = expectations.getProperty("expect.bfcf", "false").strip();
        assertTrue(value.equals("true") || value.equals("false"), "expect.bfcf must be true or false: " + value);
        return value;
    }

    private void runClient(final List<String> command, final String nodePath) throws Exception
    {
        try (TestServer daemon = new TestServer(dataDir.resolve("data"), c -> { }))
        {
            final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.command().add(Integer.toString(daemon.port()));
            builder.environment().put("DDF_EXPECT_BFCF", expectBfcf());
            if (nodePath != null)
            {
                builder.environment().put("NODE_PATH", nodePath);
            }
            // output to a file, not a pipe: a hung client must not block the read past the timeout
            final Path output = dataDir.resolve("client.log");
            builder.redirectOutput(output.toFile());
            final Process process = builder.start();
            final boolean exited = process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            final String text = Files.readString(output, StandardCharsets.UTF_8);
            System.out.println(text);
            if (!exited)
            {
                process.destroyForcibly();
                fail("client did not finish in " + TIMEOUT_SECONDS + " s:\n" + text);
            }
            assertEquals(0, process.exitValue(), "client run failed:\n" + text + "\ndaemon log:\n" + daemon.log());
            assertTrue(text.contains("PASS resp2 bf core"), "the core case did not run:\n" + text);
        }
    }

    @Test
    void redisPy() throws Exception
    {
        final Path python = clientsDir().resolve("venv/bin/python");
        requireInstalled(python, "redis-py (a venv with pip 'redis')");
        runClient(new ArrayList<>(List.of(python.toString(),
            SCRIPTS.resolve("redis_py_test.py").toString())), null);
    }

    @Test
    void nodeRedis() throws Exception
    {
        final Path modules = clientsDir().resolve("node/node_modules");
        requireInstalled(modules.resolve("@redis/bloom"), "node-redis with @redis/bloom");
        runClient(new ArrayList<>(List.of("node", SCRIPTS.resolve("node_redis_test.cjs").toString())),
            modules.toString());
    }
}
