package io.ddf.ingest.tls;

import io.netty.handler.ssl.SslContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reloading the certificate: a good file replaces the context, a bad one keeps the old; SIGHUP triggers it. */
class ReloadableTlsTest
{
    @TempDir
    Path dir;

    @Test
    void aBadReloadKeepsTheOldContext() throws IOException
    {
        final TestCertificates certs = TestCertificates.make(dir);
        final Path cert = dir.resolve("live.crt");
        final Path key = dir.resolve("live.key");
        Files.copy(certs.serverCert(), cert);
        Files.copy(certs.serverKey(), key);
        final List<String> log = new ArrayList<>();
        final ReloadableTls tls = new ReloadableTls(new TlsOptions(cert, key, null, certs.caCert(), null,
            ClientAuthMode.YES, List.of(), List.of()), TlsContexts.preferredProvider(), log::add);
        final SslContext first = tls.context();
        Files.copy(certs.clientKey(), key, StandardCopyOption.REPLACE_EXISTING);
        assertFalse(tls.reload(), "a key that does not go with the certificate");
        assertSame(first, tls.context());
        assertTrue(log.get(0).startsWith("ddf: TLS reload refused, still using the previous certificate: "), log.get(0));
        Files.copy(certs.serverKey(), key, StandardCopyOption.REPLACE_EXISTING);
        assertTrue(tls.reload());
        assertNotSame(first, tls.context());
    }

    @Test
    void sighupRunsTheAction() throws Exception
    {
        final CountDownLatch hup = new CountDownLatch(1);
        final List<String> log = new ArrayList<>();
        if (!ReloadableTls.onHangup(hup::countDown, log::add))
        {
            // started with SIGHUP ignored (nohup, some init scripts): the JVM keeps it ignored, and that is said,
            // with the other way to reload (CONFIG SET tls-cert-file, TlsServerTest)
            assertEquals(1, log.size(), log::toString);
            assertTrue(log.get(0).contains("SIGHUP is ignored") && log.get(0).contains("CONFIG SET tls-cert-file"),
                log.get(0));
            return;
        }
        assertTrue(log.isEmpty(), log::toString);
        final Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(ProcessHandle.current().pid()))
            .inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0);
        assertTrue(hup.await(10, TimeUnit.SECONDS), "SIGHUP reached the handler");
    }
}
