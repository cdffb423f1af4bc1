package io.ddf.ingest.config;

import io.ddf.ingest.server.ServeCommand;
import io.ddf.ingest.tls.ClientAuthMode;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** serve's TLS and ACL options, as Redis names them, into the configuration; their refusals. */
class SecurityOptionsTest
{
    private static ServerConfig parse(final String... args)
    {
        final ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs(args);
        return serve.config();
    }

    @Test
    void redisOptionsCarryOver()
    {
        final ServerConfig c = parse("--port", "0", "--tls-port", "7400", "--tls-cert-file", "s.crt",
            "--tls-key-file", "s.key", "--tls-key-file-pass", "p", "--tls-ca-cert-file", "ca.crt",
            "--tls-auth-clients", "optional", "--tls-protocols", "TLSv1.3", "--tls-ciphers",
            "ECDHE-RSA-AES128-GCM-SHA256", "--tls-ciphersuites", "TLS_AES_128_GCM_SHA256", "--aclfile", "u.acl",
            "--tls-feed", "yes", "--tls-handshakes-per-second", "0");
        assertEquals(-1, c.port, "--port 0 beside --tls-port: no plain port");
        assertEquals(7400, c.tlsPort);
        assertEquals(Path.of("s.crt"), c.tls.certFile());
        assertEquals("p", c.tls.keyPassword());
        assertEquals(ClientAuthMode.OPTIONAL, c.tls.authClients());
        assertEquals(List.of("TLSv1.3"), c.tls.protocols());
        assertEquals(List.of("ECDHE-RSA-AES128-GCM-SHA256", "TLS_AES_128_GCM_SHA256"), c.tls.ciphers());
        assertEquals(Path.of("u.acl"), c.aclFile);
        assertTrue(c.tlsFeed);
        assertFalse(c.tlsMetrics);
        assertEquals(0, c.tlsHandshakesPerSecond);
    }

    @Test
    void withoutTlsPortZeroStillPicksAFreePort()
    {
        final ServerConfig c = parse("--port", "0");
        assertEquals(0, c.port);
        assertEquals(-1, c.tlsPort);
        assertNull(c.tls);
    }

    @Test
    void refusals()
    {
        assertEquals("--tls-auth-clients must be yes, no or optional, not 'maybe'", assertThrows(
            IllegalArgumentException.class, () -> parse("--tls-port", "1", "--tls-cert-file", "a", "--tls-key-file",
                "b", "--tls-auth-clients", "maybe")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--tls-port", "1", "--tls-cert-file",
            "a", "--tls-key-file", "b")).getMessage().contains("needs --tls-ca-cert-file"), "yes by default");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--tls-port", "1")).getMessage()
            .contains("--tls-cert-file and --tls-key-file"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--tls-cert-file", "a",
            "--tls-key-file", "b")).getMessage().contains("need --tls-port"));
        assertEquals("--tls-feed must be yes or no, not 'sure'", assertThrows(IllegalArgumentException.class,
            () -> parse("--tls-feed", "sure")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--tls-port", "1", "--tls-cert-file",
            "a", "--tls-key-file", "b", "--tls-auth-clients", "no", "--tls-engine", "gnutls")).getMessage()
            .contains("--tls-engine must be openssl or jdk"));
    }
}
