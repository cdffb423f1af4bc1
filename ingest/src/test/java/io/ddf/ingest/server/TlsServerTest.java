package io.ddf.ingest.server;

import io.ddf.ingest.tls.ClientAuthMode;
import io.ddf.ingest.tls.TestCertificates;
import io.ddf.ingest.tls.TlsOptions;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The daemon over TLS: RESP on the TLS port only ({@code --port 0}), client certificates required, a handshake
 * never finished closed at --auth-timeout, plain RESP on the TLS port refused, the raw feed and the metrics
 * endpoint over TLS, and a bad key refusing to start.
 */
class TlsServerTest
{
    @TempDir
    static Path certDir;
    static TestCertificates certs;

    @TempDir
    Path dir;

    @BeforeAll
    static void certificates() throws IOException
    {
        certs = TestCertificates.make(certDir);
    }

    private static TlsOptions options(final Path key)
    {
        return new TlsOptions(certs.serverCert(), key, null, certs.caCert(), null, ClientAuthMode.YES, List.of(),
            List.of());
    }

    /** A JDK context trusting the test CA, with the client certificate when {@code withCertificate}. */
    static SSLContext client(final boolean withCertificate) throws IOException
    {
        final SslContextBuilder b = SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
            .trustManager(certs.caCert().toFile());
        if (withCertificate)
        {
            b.keyManager(certs.clientCert().toFile(), certs.clientKey().toFile());
        }
        return ((JdkSslContext)b.build()).context();
    }

    static RespClient tlsClient(final int port, final boolean withCertificate) throws IOException
    {
        final SSLSocket socket = (SSLSocket)client(withCertificate).getSocketFactory().createSocket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.startHandshake();
        return new RespClient(socket);
    }

    @Test
    void respOverTlsOnly() throws Exception
    {
        try (TestServer daemon = new TestServer(dir.resolve("data"), c ->
        {
            c.port = -1;
            c.tlsPort = 0;
            c.tls = options(certs.serverKey());
            c.authTimeoutSeconds = 1;
        }))
        {
            assertEquals(-1, daemon.server.port(), "--port 0: no plain port");
            final int port = daemon.server.tlsPort();
            try (RespClient client = tlsClient(port, true))
            {
                assertEquals("PONG", client.call("PING"));
                assertEquals(1L, client.call("BF.ADD", "k", "a"));
                assertEquals(0L, client.call("BF.ADD", "k", "a"));
            }
            assertThrows(IOException.class, () ->
            {
                try (RespClient client = tlsClient(port, false))
                {
                    client.call("PING");
                }
            }, "no client certificate");
            // a connection that never starts its handshake is closed at --auth-timeout
            try (Socket raw = new Socket())
            {
                raw.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                raw.setSoTimeout(10_000);
                final long start = System.nanoTime();
                assertEquals(-1, raw.getInputStream().read());
                assertTrue(System.nanoTime() - start < 8_000_000_000L, "closed by the handshake timeout");
            }
            // plain RESP on the TLS port is not a TLS record: the connection is closed, nothing is run
            try (Socket raw = new Socket())
            {
                raw.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                raw.setSoTimeout(10_000);
                raw.getOutputStream().write(RespClient.encode("BF.ADD", "k", "plain"));
                final InputStream in = raw.getInputStream();
                int b;
                while ((b = in.read()) >= 0)
                {
                    assertTrue(b != '+' && b != ':', "no RESP reply on the TLS port");
                }
            }
            assertTrue(daemon.log().contains("RESP over TLS on port " + port), daemon.log());
        }
    }

    /**
     * CONFIG SET of the tls-* files reloads the certificate, as Redis does (the way that works whatever the daemon's
     * signals: under nohup SIGHUP is ignored): the files named are read again, new handshakes use them, and files
     * that do not load change nothing and get Redis's error.
     */
    @Test
    void configSetOfTheTlsFilesReloadsTheCertificate() throws Exception
    {
        try (TestServer daemon = new TestServer(dir.resolve("data"), c ->
        {
            c.tlsPort = 0;
            c.tls = options(certs.serverKey());
        });
            RespClient plain = daemon.client())
        {
            final int port = daemon.server.tlsPort();
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'tls-cert-file') - Unable to update " +
                "TLS configuration. Check server logs.", plain.call("CONFIG", "SET", "tls-cert-file",
                    certs.dir().resolve("nosuch.crt").toString()));
            try (RespClient tls = tlsClient(port, true))
            {
                assertEquals("PONG", tls.call("PING"), "a file that does not load changes nothing");
            }
            // another CA's certificate and key: new handshakes get it, and this client does not trust it
            assertEquals("OK", plain.call("CONFIG", "SET", "tls-cert-file", certs.foreignCert().toString(),
                "tls-key-file", certs.foreignKey().toString()));
            assertThrows(javax.net.ssl.SSLException.class, () -> tlsClient(port, true).close());
            assertEquals("OK", plain.call("CONFIG", "SET", "tls-cert-file", certs.serverCert().toString(),
                "tls-key-file", certs.serverKey().toString()));
            try (RespClient tls = tlsClient(port, true))
            {
                assertEquals("PONG", tls.call("PING"));
            }
            assertEquals("OK", plain.call("CONFIG", "SET", "tls-cert-file", certs.serverCert().toString()),
                "the same path is read again");
            assertTrue(daemon.log().contains("TLS certificate and key reloaded"), daemon.log());
            assertEquals("-ERR wrong number of arguments for 'config|set' command",
                plain.call("CONFIG", "SET", "tls-cert-file"));
            assertTrue(String.valueOf(plain.call("CONFIG", "SET", "maxclients", "10")).startsWith(
                "-ERR CONFIG SET is not supported"));
        }
    }

    @Test
    void plainAndTlsPortsTogether() throws Exception
    {
        try (TestServer daemon = new TestServer(dir.resolve("data"), c ->
        {
            c.tlsPort = 0;
            c.tls = options(certs.serverKey());
        });
            RespClient plain = daemon.client();
            RespClient tls = tlsClient(daemon.server.tlsPort(), true))
        {
            assertEquals(1L, plain.call("BF.ADD", "k", "a"));
            assertEquals(0L, tls.call("BF.ADD", "k", "a"), "one daemon behind both ports");
        }
    }

    @Test
    void feedAndMetricsOverTls() throws Exception
    {
        try (TestServer daemon = new TestServer(dir.resolve("data"), c ->
        {
            c.tls = options(certs.serverKey());
            c.tlsFeed = true;
            c.tlsMetrics = true;
            c.feedPort = 0;
            c.metricsPort = 0;
        }))
        {
            final SSLSocket feed = (SSLSocket)client(true).getSocketFactory().createSocket("127.0.0.1",
                daemon.server.feedPort());
            feed.setSoTimeout(10_000);
            feed.getOutputStream().write("x\ny\nx\n".getBytes(StandardCharsets.US_ASCII));
            feed.getOutputStream().flush();
            final byte[] verdicts = feed.getInputStream().readNBytes(3);
            assertEquals("UUD", new String(verdicts, StandardCharsets.US_ASCII));
            feed.close();
            final HttpsURLConnection https = (HttpsURLConnection)URI.create("https://127.0.0.1:" +
                daemon.server.metricsPort() + "/metrics").toURL().openConnection();
            https.setSSLSocketFactory(client(true).getSocketFactory());
            https.setHostnameVerifier((host, session) -> "127.0.0.1".equals(host));
            assertEquals(200, https.getResponseCode());
            assertTrue(new String(https.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .contains("ddf_connected_clients"));
            final HttpsURLConnection anonymous = (HttpsURLConnection)URI.create("https://127.0.0.1:" +
                daemon.server.metricsPort() + "/metrics").toURL().openConnection();
            anonymous.setSSLSocketFactory(client(false).getSocketFactory());
            anonymous.setHostnameVerifier((host, session) -> true);
            assertThrows(IOException.class, anonymous::getResponseCode, "no client certificate");
        }
    }

    @Test
    void aKeyThatIsNotTheCertificatesRefusesToStart()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new TestServer(dir.resolve("data"), c ->
            {
                c.tlsPort = 0;
                c.tls = options(certs.clientKey());
            }).close());
        assertTrue(e.getMessage().contains(certs.clientKey().toString()), e.getMessage());
        final IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
            () -> new TestServer(dir.resolve("data"), c -> c.port = -1).close());
        assertEquals("--port 0 turns the plain port off: give --tls-port P too", none.getMessage());
    }
}
