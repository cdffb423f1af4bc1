package io.ddf.engine.scaling;

import org.junit.jupiter.api.Assumptions;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.util.SafeEncoder;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real redis-server with RedisBloom 2.4.23 loaded, on an ephemeral port, for the tests that check ddf's RedisBloom
 * layouts against the original. Absent module or server: the test is skipped with a message (CI never needs them).
 * The module's path comes from {@code DDF_REDISBLOOM_SO}, by default {@code ../shared/redisbloom/} beside the
 * repository (the path the bench scripts use).
 */
final class RealRedisBloom implements AutoCloseable
{
    private final Process process;
    private final Jedis jedis;

    private RealRedisBloom(final Process process, final Jedis jedis)
    {
        this.process = process;
        this.jedis = jedis;
    }

    static Path module()
    {
        final String configured = System.getenv("DDF_REDISBLOOM_SO");
        if (configured != null && !configured.isBlank())
        {
            return Path.of(configured);
        }
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("pom.xml").resolveSibling("jvm-flags.properties")))
        {
            dir = dir.getParent();
        }
        final Path root = dir == null ? Path.of("").toAbsolutePath() : dir;
        final Path beside = root.resolveSibling("shared").resolve("redisbloom").resolve("redisbloom-2.4.23.so");
        return Files.isRegularFile(beside) ? beside : Path.of("/work/shared/redisbloom/redisbloom-2.4.23.so");
    }

    /** @return a started server, or the test is skipped with the reason. */
    static RealRedisBloom startOrSkip() throws IOException, InterruptedException
    {
        final Path module = module();
        Assumptions.assumeTrue(Files.isRegularFile(module), "RedisBloom module not found at " + module +
            " (set DDF_REDISBLOOM_SO): skipped");
        Assumptions.assumeTrue(onPath("redis-server"), "redis-server not installed: skipped");
        final int port;
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort();
        }
        final Process process = new ProcessBuilder("redis-server", "--port", String.valueOf(port), "--bind",
            "127.0.0.1", "--save", "", "--appendonly", "no", "--loadmodule", module.toString())
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        for (int attempt = 0; attempt < 100; attempt++)
        {
            try
            {
                final Jedis jedis = new Jedis("127.0.0.1", port, 60_000);
                jedis.ping();
                return new RealRedisBloom(process, jedis);
            }
            catch (final RuntimeException notYet)
            {
                Thread.sleep(50);
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

    Object call(final String command, final Object... args)
    {
        final byte[][] raw = new byte[args.length][];
        for (int i = 0; i < args.length; i++)
        {
            raw[i] = args[i] instanceof byte[] bytes ? bytes : SafeEncoder.encode(String.valueOf(args[i]));
        }
        final ProtocolCommand name = () -> SafeEncoder.encode(command);
        return jedis.sendCommand(name, raw);
    }

    /** @return the reply as a long. */
    long number(final String command, final Object... args)
    {
        return (Long)call(command, args);
    }

    /** @return the reply, an array of integers, as longs. */
    @SuppressWarnings("unchecked")
    List<Long> numbers(final String command, final Object... args)
    {
        return (List<Long>)call(command, args);
    }

    /**
     * @return every chunk of a dump ({@code BF.SCANDUMP} or {@code CF.SCANDUMP}): iterator, then data, alternating,
     *         the header first.
     */
    @SuppressWarnings("unchecked")
    List<Object[]> scandump(final String command, final String key)
    {
        final List<Object[]> chunks = new ArrayList<>();
        long iter = 0;
        while (true)
        {
            final List<Object> reply = (List<Object>)call(command, key, iter);
            iter = (Long)reply.get(0);
            if (iter == 0)
            {
                return chunks;
            }
            chunks.add(new Object[] {iter, reply.get(1)});
        }
    }

    String text(final Object reply)
    {
        return reply instanceof byte[] bytes ? SafeEncoder.encode(bytes) : String.valueOf(reply);
    }

    Jedis jedis()
    {
        return jedis;
    }

    @Override
    public void close()
    {
        jedis.close();
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
