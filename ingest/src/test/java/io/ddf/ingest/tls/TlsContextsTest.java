package io.ddf.ingest.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The server context from Redis's options, on both engines: client certificates, and clear refusals. */
class TlsContextsTest
{
    @TempDir
    static Path dir;
    static TestCertificates certs;

    @BeforeAll
    static void certificates() throws IOException
    {
        certs = TestCertificates.make(dir);
    }

    private static TlsOptions options(final ClientAuthMode auth)
    {
        return new TlsOptions(certs.serverCert(), certs.serverKey(), null, certs.caCert(), null, auth, List.of(),
            List.of());
    }

    private static void connect(final SslContext server, final SslProvider provider, final Path cert,
        final Path key) throws SSLException
    {
        final SslContextBuilder b = SslContextBuilder.forClient().sslProvider(provider).trustManager(
            certs.caCert().toFile());
        if (cert != null)
        {
            b.keyManager(cert.toFile(), key.toFile());
        }
        final MemoryHandshake h = new MemoryHandshake(b.build().newEngine(ByteBufAllocator.DEFAULT, "127.0.0.1", 1),
            server.newEngine(ByteBufAllocator.DEFAULT));
        h.handshake();
        final ByteBuffer ping = ByteBuffer.wrap("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals(14 + 7, h.roundTrip(ping, ByteBuffer.wrap("+PONG\r\n".getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void boringSslLoadsHere()
    {
        assertTrue(OpenSsl.isAvailable(), () -> "netty-tcnative did not load: " + OpenSsl.unavailabilityCause());
        assertEquals(SslProvider.OPENSSL, TlsContexts.preferredProvider());
    }

    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void clientCertificates(final SslProvider provider) throws SSLException
    {
        final SslContext required = TlsContexts.server(options(ClientAuthMode.YES), provider);
        connect(required, provider, certs.clientCert(), certs.clientKey());
        assertThrows(SSLException.class, () -> connect(required, provider, null, null), "no certificate");
        assertThrows(SSLException.class, () -> connect(required, provider, certs.foreignCert(),
            certs.foreignKey()), "a certificate another CA signed");
        final SslContext optional = TlsContexts.server(options(ClientAuthMode.OPTIONAL), provider);
        connect(optional, provider, null, null);
        connect(optional, provider, certs.clientCert(), certs.clientKey());
        connect(TlsContexts.server(new TlsOptions(certs.serverCert(), certs.serverKey(), null, null, null,
            ClientAuthMode.NO, List.of(), List.of()), provider), provider, null, null);
    }

    @ParameterizedTest
    @EnumSource(value = SslProvider.class, names = {"JDK", "OPENSSL"})
    void encryptedKeyAndCaDirectory(final SslProvider provider) throws IOException
    {
        final Path caDir = Files.createDirectories(dir.resolve("cas-" + provider));
        Files.copy(certs.caCert(), caDir.resolve("ca.pem"));
        final SslContext server = TlsContexts.server(new TlsOptions(certs.serverCert(), certs.encryptedKey(),
            TestCertificates.KEY_PASSWORD, null, caDir, ClientAuthMode.YES, List.of("TLSv1.3"), List.of()),
            provider);
        connect(server, provider, certs.clientCert(), certs.clientKey());
    }

    @Test
    void refusalsNameTheFileAndTheReason() throws IOException
    {
        final SslProvider p = TlsContexts.preferredProvider();
        final Path missing = dir.resolve("missing.crt");
        assertEquals("--tls-cert-file " + missing + ": no such file", assertThrows(IllegalArgumentException.class,
            () -> TlsContexts.server(new TlsOptions(missing, certs.serverKey(), null, certs.caCert(), null,
                ClientAuthMode.YES, List.of(), List.of()), p)).getMessage());
        final Path garbage = Files.writeString(dir.resolve("garbage.crt"), "not a certificate\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TlsContexts.server(new TlsOptions(garbage,
            certs.serverKey(), null, certs.caCert(), null, ClientAuthMode.YES, List.of(), List.of()), p))
            .getMessage().startsWith("--tls-cert-file " + garbage + ": "));
        final String wrongPass = assertThrows(IllegalArgumentException.class, () -> TlsContexts.server(
            new TlsOptions(certs.serverCert(), certs.encryptedKey(), "wrong", certs.caCert(), null,
                ClientAuthMode.YES, List.of(), List.of()), p)).getMessage();
        assertTrue(wrongPass.startsWith("--tls-key-file " + certs.encryptedKey() + ": cannot use the private key"),
            wrongPass);
        assertTrue(wrongPass.contains("--tls-key-file-pass wrong?"), wrongPass);
        final String noPass = assertThrows(IllegalArgumentException.class, () -> TlsContexts.server(
            new TlsOptions(certs.serverCert(), certs.encryptedKey(), null, certs.caCert(), null,
                ClientAuthMode.YES, List.of(), List.of()), p)).getMessage();
        assertTrue(noPass.contains("--tls-key-file-pass missing?"), noPass);
        for (final SslProvider provider : List.of(SslProvider.JDK, SslProvider.OPENSSL))
        {
            final String mismatch = assertThrows(IllegalArgumentException.class, () -> TlsContexts.server(
                new TlsOptions(certs.serverCert(), certs.clientKey(), null, certs.caCert(), null,
                    ClientAuthMode.YES, List.of(), List.of()), provider)).getMessage();
            assertTrue(mismatch.contains("does the certificate belong to this key?") ||
                mismatch.contains("cannot use the private key"), provider + ": " + mismatch);
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TlsContexts.server(new TlsOptions(
            certs.serverCert(), certs.serverKey(), null, certs.caCert(), null, ClientAuthMode.YES, List.of(),
            List.of("NOT-A-CIPHER")), p)).getMessage().contains("'NOT-A-CIPHER' is not a cipher suite"));
        assertThrows(IllegalArgumentException.class, () -> TlsOptions.parseProtocols("TLSv1.2 SSLv3"));
        assertEquals(List.of("TLSv1.2", "TLSv1.3"), TlsOptions.parseProtocols(" tlsv1.2  TLSv1.3 "));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new TlsOptions(certs.serverCert(),
            certs.serverKey(), null, null, null, ClientAuthMode.YES, List.of(), List.of())).getMessage()
            .contains("needs --tls-ca-cert-file"));
        assertEquals(ClientAuthMode.OPTIONAL, ClientAuthMode.parse("Optional"));
        assertThrows(IllegalArgumentException.class, () -> ClientAuthMode.parse("maybe"));
    }
}
