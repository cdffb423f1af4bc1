package io.ddf.ingest.server;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.SafeEncoder;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ddf serve} as users run it ({@code java -jar target/ddf.jar serve}), driven by redis-cli, redis-benchmark
 * and Jedis; killed with SIGKILL and SIGTERM and restarted on the same data directory.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServerIT
{
    private static final Path JAR = Path.of(System.getProperty("ddf.jar", "target/ddf.jar"));
    private static final long TIMEOUT_SECONDS = 60;

    @TempDir
    Path dir;
    private final List<Process> started = new ArrayList<>();

    @BeforeAll
    static void jarExists()
    {
        DaemonProcess.assertJarBuilt();
    }

    @AfterEach
    void killDaemons()
    {
        started.forEach(Process::destroyForcibly);
    }

    /** Skips when the tool is missing outside CI; fails when it is missing on CI. */
    static void requireTool(final String tool)
    {
        boolean present;
        try
        {
            final Process p = new ProcessBuilder(tool, "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            present = p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) && p.exitValue() == 0;
        }
        catch (final IOException | InterruptedException e)
        {
            present = false;
        }
        if ("true".equals(System.getenv("CI")))
        {
            assertTrue(present, tool + " is not installed (CI=true: .ci/run installs redis-tools)");
        }
        Assumptions.assumeTrue(present, tool + " is not installed");
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }

    /** A started daemon and the start line it logged. */
    record Daemon(Process process, int port, String startLine, StringBuffer err)
    {
    }

    private Daemon start(final Path data, final String... extra) throws IOException
    {
        final int port = freePort();
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString(), "serve",
            "--port", Integer.toString(port), "--data-dir", data.toString()));
        command.addAll(TestServer.executionOptions());
        command.addAll(List.of(extra));
        final Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        started.add(process);
        final BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(),
            StandardCharsets.UTF_8));
        String line;
        while ((line = err.readLine()) != null && !line.startsWith("ddf: serving"))
        {
            // skipped-file lines come first
        }
        assertTrue(line != null, "daemon exited before serving");
        final StringBuffer rest = new StringBuffer();
        final Thread drain = new Thread(() ->
        {
            try
            {
                String more;
                while ((more = err.readLine()) != null)
                {
                    rest.append(more).append('\n');
                }
            }
            catch (final IOException e)
            {
                // the process is gone
            }
        }, "daemon-stderr");
        drain.setDaemon(true);
        drain.start();
        return new Daemon(process, port, line, rest);
    }

    private static List<String> cli(final int port, final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out.isEmpty() ? List.of() : List.of(out.split("\r?\n"));
    }

    @Test
    void redisCli() throws Exception
    {
        requireTool("redis-cli");
        final Daemon daemon = start(dir.resolve("data"));
        assertTrue(daemon.startLine().contains("127.0.0.1:" + daemon.port()) &&
            daemon.startLine().contains("0 filters loaded"), daemon.startLine());
        final int port = daemon.port();
        assertEquals(List.of("PONG"), cli(port, "PING"));
        assertEquals(List.of("OK"), cli(port, "BF.RESERVE", "cli", "0.001", "1000"));
        assertEquals(List.of("ERR item exists"), cli(port, "BF.RESERVE", "cli", "0.001", "1000"));
        assertEquals(List.of("1"), cli(port, "BF.ADD", "cli", "alpha"));
        assertEquals(List.of("0"), cli(port, "BF.ADD", "cli", "alpha"));
        assertEquals(List.of("0", "1", "1"), cli(port, "BF.MADD", "cli", "alpha", "beta", "gamma"));
        assertEquals(List.of("1"), cli(port, "BF.EXISTS", "cli", "beta"));
        assertEquals(List.of("0"), cli(port, "BF.EXISTS", "cli", "delta"));
        assertEquals(List.of("1", "0"), cli(port, "BF.MEXISTS", "cli", "gamma", "delta"));
        final List<String> info = cli(port, "BF.INFO", "cli");
        assertEquals(List.of("Capacity", "1000", "Size"), info.subList(0, 3));
        assertTrue(info.contains("Number of items inserted") &&
            info.get(info.indexOf("Number of items inserted") + 1).equals("3"), info::toString);
        assertTrue(cli(port, "INFO").contains("scaling_filters:1"), "the default filter grows");
        assertTrue(cli(port, "NOSUCH").get(0).startsWith("ERR unknown command 'NOSUCH'"));
    }

    @Test
    void redisCliAuth() throws Exception
    {
        requireTool("redis-cli");
        final Daemon daemon = start(dir.resolve("data"), "--requirepass", "open-sesame");
        assertEquals(List.of("NOAUTH Authentication required."), cli(daemon.port(), "BF.ADD", "k", "a"));
        assertEquals(List.of("NOAUTH Authentication required."), cli(daemon.port(), "PING"));
        assertEquals(List.of("PONG"), cli(daemon.port(), "--no-auth-warning", "-a", "open-sesame", "PING"));
        assertEquals(List.of("1"), cli(daemon.port(), "--no-auth-warning", "-a", "open-sesame", "BF.ADD", "k", "a"));
        assertTrue(cli(daemon.port(), "--no-auth-warning", "-a", "wrong", "PING").toString().contains("WRONGPASS"));
    }

    /** RedisBloom commands, sent with Jedis's generic sendCommand. */
    enum Bf implements ProtocolCommand
    {
        RESERVE("BF.RESERVE"), ADD("BF.ADD"), MADD("BF.MADD"), EXISTS("BF.EXISTS"), MEXISTS("BF.MEXISTS"),
        INFO("BF.INFO");

        private final byte[] raw;

        Bf(final String name)
        {
            raw = SafeEncoder.encode(name);
        }

        @Override
        public byte[] getRaw()
        {
            return raw;
        }
    }

    @Test
    void jedis() throws Exception
    {
        final Daemon daemon = start(dir.resolve("data"));
        try (Jedis jedis = jedis(daemon.port()))
        {
            assertEquals("PONG", jedis.ping());
            assertEquals("OK", SafeEncoder.encode((byte[])jedis.sendCommand(Bf.RESERVE, "j", "0.01", "500")));
            assertEquals(1L, jedis.sendCommand(Bf.ADD, "j", "x"));
            assertEquals(0L, jedis.sendCommand(Bf.ADD, "j", "x"));
            assertEquals(List.of(0L, 1L), jedis.sendCommand(Bf.MADD, "j", "x", "y"));
            assertEquals(1L, jedis.sendCommand(Bf.EXISTS, "j", "y"));
            assertEquals(List.of(1L, 0L), jedis.sendCommand(Bf.MEXISTS, "j", "y", "z"));
            final List<?> info = (List<?>)jedis.sendCommand(Bf.INFO, "j");
            assertEquals("Capacity", SafeEncoder.encode((byte[])info.get(0)));
            assertEquals(500L, info.get(1));
            final JedisDataException e = assertThrows(JedisDataException.class,
                () -> jedis.sendCommand(Bf.RESERVE, "j", "0.01", "500"));
            assertEquals("ERR item exists", e.getMessage());
            assertTrue(jedis.info().contains("redis_version:"));
            assertEquals(1L, jedis.del("j"));
            assertFalse(jedis.exists("j"));
        }
    }

    @Test
    void redisBenchmark() throws Exception
    {
        requireTool("redis-benchmark");
        final Daemon daemon = start(dir.resolve("data"));
        final Process p = new ProcessBuilder("redis-benchmark", "-p", Integer.toString(daemon.port()), "-n", "20000",
            "-P", "16", "-r", "1000000", "-q", "BF.ADD", "bench", "__rand_int__").redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("requests per second"), out);
        for (final String line : out.split("[\r\n]"))
        {
            assertFalse(line.toLowerCase(java.util.Locale.ROOT).contains("error") || line.contains("WARNING"), out);
        }
        try (Jedis jedis = jedis(daemon.port()))
        {
            // the default filter counts the items it had not seen: 20000 random ones of a million, a hundred or so
            // of them repeats
            final List<?> items = (List<?>)jedis.sendCommand(Bf.INFO, "bench", "ITEMS");
            final long inserted = (Long)items.get(0);
            assertTrue(inserted > 19_000 && inserted <= 20_000, items::toString);
        }
    }

    /** SIGKILL loses nothing acknowledged: every element acknowledged before the kill is a duplicate after it. */
    @Test
    void killMinusNineKeepsAcknowledgedElements() throws Exception
    {
        final Path data = dir.resolve("data");
        final Daemon first = start(data);
        final List<String> items = new ArrayList<>();
        try (Jedis jedis = jedis(first.port()))
        {
            jedis.sendCommand(Bf.RESERVE, "k9", "0.0001", "100000");
            for (int i = 0; i < 2000; i++)
            {
                items.add("item-" + i);
            }
            final List<?> added = (List<?>)jedis.sendCommand(Bf.MADD,
                concat("k9", items.subList(0, 1000)));
            assertTrue(added.stream().allMatch(v -> v.equals(1L)));
            for (final String item : items.subList(1000, 1200))
            {
                assertEquals(1L, jedis.sendCommand(Bf.ADD, "k9", item));
            }
            assertTrue(((List<?>)jedis.sendCommand(Bf.MADD, concat("k9", items.subList(1200, 2000))))
                .stream().allMatch(v -> v.equals(1L)));
        }
        first.process().destroyForcibly();
        assertTrue(first.process().waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(137, first.process().exitValue());

        final Daemon second = start(data);
        assertTrue(second.startLine().contains("1 filter loaded"), second.startLine());
        try (Jedis jedis = jedis(second.port()))
        {
            for (final String item : items.subList(0, 100))
            {
                assertEquals(0L, jedis.sendCommand(Bf.ADD, "k9", item), item);
            }
            final List<?> again = (List<?>)jedis.sendCommand(Bf.MADD, concat("k9", items));
            for (int i = 0; i < items.size(); i++)
            {
                assertEquals(0L, again.get(i), items.get(i));
            }
        }
    }

    /** SIGTERM drains, flushes, closes, exits 0; the data is there on restart. */
    @Test
    void sigtermExitsZeroAndKeepsData() throws Exception
    {
        final Path data = dir.resolve("data");
        final Daemon first = start(data);
        try (Jedis jedis = jedis(first.port()))
        {
            assertEquals(List.of(1L, 1L, 1L), jedis.sendCommand(Bf.MADD, "term", "a", "b", "c"));
        }
        first.process().destroy();
        assertTrue(first.process().waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(0, first.process().exitValue(), first.err().toString());

        final Daemon second = start(data);
        try (Jedis jedis = jedis(second.port()))
        {
            assertEquals(List.of(0L, 0L, 0L, 1L), jedis.sendCommand(Bf.MADD, "term", "a", "b", "c", "d"));
        }
    }

    private static Jedis jedis(final int port)
    {
        return new Jedis("127.0.0.1", port, 30_000);
    }

    private static String[] concat(final String first, final List<String> rest)
    {
        final List<String> all = new ArrayList<>();
        all.add(first);
        all.addAll(rest);
        return all.toArray(new String[0]);
    }
}
