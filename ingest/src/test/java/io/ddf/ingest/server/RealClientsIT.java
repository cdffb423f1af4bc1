package io.ddf.ingest.server;

import io.ddf.ingest.tls.ClientAuthMode;
import io.ddf.ingest.tls.TestCertificates;
import io.ddf.ingest.tls.TlsOptions;
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
 *
 * <p>The same clients, and redis-cli, also run over TLS with ACL users against a daemon on a TLS port only, with
 * client certificates required and certificates the test makes ({@code *_tls_acl_test.*}, {@link #redisCliTls}).
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
            final List<String> full = new ArrayList<>(command);
            full.add(Integer.toString(daemon.port()));
            final String text = runScript(full, nodePath, daemon, "client.log");
            assertTrue(text.contains("PASS resp2 bf core"), "the core case did not run:\n" + text);
        }
    }

    /**
     * Runs a client script to its end and checks it exited 0.
     *
     * @return its output.
     */
    private String runScript(final List<String> command, final String nodePath, final TestServer daemon,
        final String log) throws Exception
    {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("DDF_EXPECT_BFCF", expectBfcf());
        if (nodePath != null)
        {
            builder.environment().put("NODE_PATH", nodePath);
        }
        // output to a file, not a pipe: a hung client must not block the read past the timeout
        final Path output = dataDir.resolve(log);
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
        return text;
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

    /** A daemon on a TLS port only, client certificates required, the users of the TLS scripts' ACL file. */
    private TestServer secureDaemon(final TestCertificates certs) throws IOException
    {
        final Path acl = Files.writeString(dataDir.resolve("users.acl"), String.join("\n", "user default off",
            "user writer on >wpw ~clicks:* +@all -@admin", "user reader on >rpw ~* +@read +@connection"));
        return new TestServer(dataDir.resolve("data"), c ->
        {
            c.port = -1;
            c.tlsPort = 0;
            c.aclFile = acl;
            c.tls = new TlsOptions(certs.serverCert(), certs.serverKey(), null, certs.caCert(), null,
                ClientAuthMode.YES, List.of(), List.of());
        });
    }

    private void runTlsClient(final List<String> command, final String nodePath) throws Exception
    {
        final TestCertificates certs = TestCertificates.make(Files.createDirectories(dataDir.resolve("certs")));
        try (TestServer daemon = secureDaemon(certs))
        {
            final List<String> full = new ArrayList<>(command);
            full.add(Integer.toString(daemon.server.tlsPort()));
            full.add(certs.dir().toString());
            final String text = runScript(full, nodePath, daemon, "tls-client.log");
            for (final String ran : List.of("PASS tls acl writer resp2", "PASS tls acl reader",
                "PASS tls acl wrongpass", "PASS tls no client certificate", "PASS tls foreign client certificate"))
            {
                assertTrue(text.contains(ran), ran + " did not run:\n" + text);
            }
        }
    }

    @Test
    void redisPyOverTls() throws Exception
    {
        final Path python = clientsDir().resolve("venv/bin/python");
        requireInstalled(python, "redis-py (a venv with pip 'redis')");
        runTlsClient(new ArrayList<>(List.of(python.toString(),
            SCRIPTS.resolve("redis_py_tls_acl_test.py").toString())), null);
    }

    @Test
    void nodeRedisOverTls() throws Exception
    {
        final Path modules = clientsDir().resolve("node/node_modules");
        requireInstalled(modules.resolve("redis"), "node-redis");
        runTlsClient(new ArrayList<>(List.of("node", SCRIPTS.resolve("node_redis_tls_acl_test.cjs").toString())),
            modules.toString());
    }

    /** redis-cli --tls --cacert --cert --key, with --user/--pass, and without a certificate. */
    @Test
    void redisCliTls() throws Exception
    {
        final TestCertificates certs = TestCertificates.make(Files.createDirectories(dataDir.resolve("certs")));
        try (TestServer daemon = secureDaemon(certs))
        {
            final List<String> tls = List.of("redis-cli", "-h", "127.0.0.1", "-p",
                Integer.toString(daemon.server.tlsPort()), "--tls", "--cacert", certs.caCert().toString());
            final List<String> withCert = new ArrayList<>(tls);
            withCert.addAll(List.of("--cert", certs.clientCert().toString(), "--key", certs.clientKey().toString()));
            assertEquals("1", cli(withCert, "--user", "writer", "--pass", "wpw", "BF.ADD", "clicks:cli", "a"));
            assertEquals("writer", cli(withCert, "--user", "writer", "--pass", "wpw", "ACL", "WHOAMI"));
            assertEquals("NOPERM No permissions to access a key",
                cli(withCert, "--user", "writer", "--pass", "wpw", "BF.ADD", "orders:cli", "a"));
            assertEquals("1", cli(withCert, "--user", "reader", "--pass", "rpw", "BF.EXISTS", "clicks:cli", "a"));
            assertEquals("NOPERM User reader has no permissions to run the 'bf.add' command",
                cli(withCert, "--user", "reader", "--pass", "rpw", "BF.ADD", "clicks:cli", "b"));
            assertTrue(cli(withCert, "--user", "writer", "--pass", "nope", "PING").contains("WRONGPASS"));
            assertTrue(cli(withCert, "PING").contains("NOAUTH"), "user default off");
            final String noCert = cli(tls, "--user", "writer", "--pass", "wpw", "PING");
            assertTrue(!noCert.contains("PONG"), "refused without a client certificate: " + noCert);
        }
    }

    private static String cli(final List<String> base, final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(base);
        command.add("--no-auth-warning");
        command.addAll(List.of(args));
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), "redis-cli hung");
        return out.startsWith("(error) ") ? out.substring(8) : out;
    }
}
