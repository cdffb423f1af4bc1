package io.ddf.ingest.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates the tests make for themselves with the {@code openssl} command (Debian's openssl package, which
 * .ci/run installs): a CA, a server certificate for 127.0.0.1 and localhost, a client certificate from the same
 * CA, a foreign CA with its own client, and the server key again encrypted with a password. P-256 keys, PKCS#8.
 *
 * @param dir        where the files are.
 * @param caCert     the CA.
 * @param serverCert the server's certificate.
 * @param serverKey  its key.
 * @param clientCert a client certificate signed by the CA.
 * @param clientKey  its key.
 * @param foreignCa   another CA.
 * @param foreignCert a client certificate the other CA signed.
 * @param foreignKey  its key.
 * @param encryptedKey the server key encrypted with {@link #KEY_PASSWORD}.
 */
public record TestCertificates(Path dir, Path caCert, Path serverCert, Path serverKey, Path clientCert,
    Path clientKey, Path foreignCa, Path foreignCert, Path foreignKey, Path encryptedKey)
{
    /** The password of {@link #encryptedKey}. */
    public static final String KEY_PASSWORD = "k3y-pass";

    /**
     * @param dir an empty directory.
     * @return the certificates, made there.
     * @throws IOException when openssl fails (its output in the message).
     */
    public static TestCertificates make(final Path dir) throws IOException
    {
        final TestCertificates c = new TestCertificates(dir, dir.resolve("ca.crt"), dir.resolve("server.crt"),
            dir.resolve("server.key"), dir.resolve("client.crt"), dir.resolve("client.key"),
            dir.resolve("foreign-ca.crt"), dir.resolve("foreign.crt"), dir.resolve("foreign.key"),
            dir.resolve("server-encrypted.key"));
        ca(dir, "ca", "ddf test CA");
        ca(dir, "foreign-ca", "someone else's CA");
        Files.writeString(dir.resolve("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n" +
            "extendedKeyUsage=serverAuth\n", StandardCharsets.US_ASCII);
        Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n", StandardCharsets.US_ASCII);
        signed(dir, "server", "ca", "127.0.0.1", "server.ext");
        signed(dir, "client", "ca", "ddf test client", "client.ext");
        signed(dir, "foreign", "foreign-ca", "foreign client", "client.ext");
        run(dir, "openssl", "pkcs8", "-topk8", "-in", "server.key", "-out", "server-encrypted.key", "-v2",
            "aes-256-cbc", "-passout", "pass:" + KEY_PASSWORD);
        return c;
    }

    private static void ca(final Path dir, final String name, final String subject) throws IOException
    {
        key(dir, name + ".key");
        run(dir, "openssl", "req", "-x509", "-new", "-key", name + ".key", "-sha256", "-days", "2", "-subj",
            "/CN=" + subject, "-out", name + ".crt");
    }

    private static void signed(final Path dir, final String name, final String ca, final String cn,
        final String ext) throws IOException
    {
        key(dir, name + ".key");
        run(dir, "openssl", "req", "-new", "-key", name + ".key", "-subj", "/CN=" + cn, "-out", name + ".csr");
        run(dir, "openssl", "x509", "-req", "-in", name + ".csr", "-CA", ca + ".crt", "-CAkey", ca + ".key",
            "-CAcreateserial", "-days", "2", "-sha256", "-extfile", ext, "-out", name + ".crt");
    }

    private static void key(final Path dir, final String file) throws IOException
    {
        run(dir, "openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", file);
    }

    static void run(final Path dir, final String... command) throws IOException
    {
        final Process p = new ProcessBuilder(new ArrayList<>(List.of(command))).directory(dir.toFile())
            .redirectErrorStream(true).start();
        try
        {
            final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0)
            {
                throw new IOException(String.join(" ", command) + " failed: " + out);
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
