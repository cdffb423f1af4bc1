package io.ddf.persistence.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real redis-server with RedisBloom 2.4.23 loaded, on an ephemeral loopback port, for the tests that compare ddf
 * with the original. Where the module or redis-server is absent the test is skipped with a message: CI never needs
 * them. The module's path comes from {@code REDISBLOOM}, by default {@value #DEFAULT_MODULE}: the variable and the
 * default the bench scripts use ({@code bench/scripts/redisbloom-module.sh}).
 */
public final class RedisBloomProcess implements AutoCloseable
{
    /** RedisBloom 2.4.23 as built for this machine. */
    public static final String DEFAULT_MODULE = "/work/shared/redisbloom/redisbloom-2.4.23.so";

    private final Process process;
    private final int port;

    private RedisBloomProcess(final Process process, final int port)
    {
        this.process = process;
        this.port = port;
    }

    /** @return where the module is looked for: {@code REDISBLOOM}, else {@value #DEFAULT_MODULE}. */
    public static Path module()
    {
        final String configured = System.getenv("REDISBLOOM");
        return Path.of(configured != null && !configured.isBlank() ? configured : DEFAULT_MODULE);
    }

    /**
     * @return a started server, or the calling test is skipped with the reason.
     * @throws IOException          when it cannot be started.
     * @throws InterruptedException when interrupted while waiting for it.
     */
    public static RedisBloomProcess startOrSkip() throws IOException, InterruptedException
    {
        final Path module = module();
        Assumptions.assumeTrue(Files.isRegularFile(module), "RedisBloom module not found at " + module +
            " (set REDISBLOOM): skipped");
        Assumptions.assumeTrue(onPath("redis-server"), "redis-server not installed: skipped");
        final int port;
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort();
        }
        final Process process = new ProcessBuilder("redis-server", "--port", String.valueOf(port), "--bind",
            "127.0.0.1", "--save", "", "--appendonly", "no", "--loadmodule", module.toString())
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        for (int attempt = 0; attempt < 200; attempt++)
        {
            try (Socket probe = new Socket())
            {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return new RedisBloomProcess(process, port);
            }
            catch (final IOException notYet)
            {
                if (!process.isAlive())
                {
                    throw new IllegalStateException("redis-server with " + module + " exited with " +
                        process.exitValue());
                }
                Thread.sleep(25);
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("redis-server with RedisBloom did not start on port " + port);
    }

    private static boolean onPath(final String command)
    {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(":"))
        {
            if (Files.isExecutable(Path.of(dir, command)))
            {
                return true;
            }
        }
        return false;
    }

    /** @return its port on 127.0.0.1. */
    public int port()
    {
        return port;
    }

    @Override
    public void close()
    {
        process.destroy();
        try
        {
            if (!process.waitFor(10, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
            }
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
