package io.ddf.ingest.server;

import io.ddf.ingest.config.ServerConfig;
import io.ddf.persistence.testing.RedisBloomProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * RedisBloom 2.4.23's flow tests, ported ({@code src/test/clients/redisbloom_flow.py}, redis-py with protocol 2):
 * the ddf daemon passes every case in RedisBloom's layout ({@code --scaling-layout redisbloom}, checked bit for bit)
 * and in its default layout (its chain of blocked layers: the cases that read RedisBloom's geometry check what any
 * layout keeps, the script's {@code --layout ddf}), and so does RedisBloom 2.4.23 itself where the module is
 * installed (which shows the port asks what the originals ask).
 */
class RedisBloomFlowIT
{
    private static final Path SCRIPT = Path.of("src/test/clients/redisbloom_flow.py");
    private static final long TIMEOUT_SECONDS = 600;

    @TempDir
    Path dir;

    static Path python()
    {
        final String configured = System.getenv("DDF_CLIENTS_DIR");
        final Path clients = configured == null ? Path.of("target/clients") : Path.of(configured);
        final Path python = clients.resolve("venv/bin/python");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(python) || System.getenv("CI") != null,
            "redis-py is not installed at " + python + " (src/test/clients/setup.sh): skipped");
        return python;
    }

    /**
     * @param dir  where the output goes.
     * @param port the server.
     * @return the script's output.
     */
    static String run(final Path dir, final int port, final String layout) throws Exception
    {
        final Path output = dir.resolve("flow-" + layout + ".log");
        final Process process = new ProcessBuilder(List.of(python().toString(), SCRIPT.toString(),
            Integer.toString(port), "--layout", layout)).redirectErrorStream(true).redirectOutput(output.toFile())
            .start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            fail("the flow tests did not finish in " + TIMEOUT_SECONDS + " s:\n" + Files.readString(output));
        }
        final String text = Files.readString(output, StandardCharsets.UTF_8);
        System.out.println(text);
        assertEquals(0, process.exitValue(), text);
        assertTrue(text.contains(" passed, 0 failed"), text);
        return text;
    }

    @Test
    void ddfInRedisBloomsLayoutPassesThePort() throws Exception
    {
        try (TestServer daemon = new TestServer(dir.resolve("data"), c ->
        {
            c.pastCapacity = ServerConfig.PastCapacity.SCALE;
            c.scalingLayout = io.ddf.ingest.store.ScalingRegistry.Layout.REDISBLOOM;
        }))
        {
            final String text = run(dir, daemon.port(), "redisbloom");
            assertTrue(text.contains("PASS test_debug") && text.contains("PASS test_cf_scandump_invalid"), text);
        }
    }

    @Test
    void ddfInItsDefaultLayoutPassesThePort() throws Exception
    {
        try (TestServer daemon = new TestServer(dir.resolve("data"), c -> c.pastCapacity = ServerConfig.PastCapacity.SCALE))
        {
            final String text = run(dir, daemon.port(), "ddf");
            assertTrue(text.contains("PASS test_debug") && text.contains("PASS test_cf_scandump_invalid"), text);
        }
    }

    @Test
    void redisBloomItselfPassesThePort() throws Exception
    {
        try (RedisBloomProcess redis = RedisBloomProcess.startOrSkip())
        {
            final String text = run(dir, redis.port(), "redisbloom");
            assertTrue(text.contains("PASS test_debug") && text.contains("PASS test_cf_scandump_invalid"), text);
        }
    }
}
