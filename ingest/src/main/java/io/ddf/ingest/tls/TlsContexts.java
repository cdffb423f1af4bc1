package io.ddf.ingest.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Builds the daemon's server {@link SslContext} from Redis's options, refusing what cannot work with the file and
 * the reason: a missing or unreadable file, a certificate that is not PEM, a key that cannot be read (not PKCS#8,
 * or a wrong {@code --tls-key-file-pass}), a certificate that does not go with the key (checked by a handshake
 * through memory, since the JDK's engine would only fail at the first client), an unknown protocol or cipher.
 *
 * <p>The engine is BoringSSL through netty-tcnative when it loads ({@link SslProvider#OPENSSL}): measured faster
 * than the JDK's for both handshakes and small RESP frames ({@code bench/tls-engine.sh}, README "Securing a
 * daemon"); the JDK's engine is the fallback, said so in the log.
 */
public final class TlsContexts
{
    private TlsContexts()
    {
    }

    /** @return BoringSSL when netty-tcnative loads on this machine, else the JDK's engine. */
    public static SslProvider preferredProvider()
    {
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    /**
     * @param options  the TLS options.
     * @param provider the engine.
     * @return a server context, checked to work with its own certificate and key.
     * @throws IllegalArgumentException naming the option, the file and the reason when it cannot be built.
     */
    public static SslContext server(final TlsOptions options, final SslProvider provider)
    {
        readable("--tls-cert-file", options.certFile());
        readable("--tls-key-file", options.keyFile());
        final List<X509Certificate> chain = certificates("--tls-cert-file", options.certFile());
        final List<X509Certificate> cas = new ArrayList<>();
        if (options.caCertFile() != null)
        {
            readable("--tls-ca-cert-file", options.caCertFile());
            cas.addAll(certificates("--tls-ca-cert-file", options.caCertFile()));
        }
        if (options.caCertDir() != null)
        {
            cas.addAll(directory(options.caCertDir()));
        }
        checkCiphers(options.ciphers(), provider);
        final SslContext context = build(options, provider, chain, cas, options.authClients().netty());
        // the self-check: a client that trusts anything must complete a handshake with this certificate and key
        selfCheck(options, provider, chain, cas);
        return context;
    }

    /**
     * The same context on the JDK's engine, as a {@link SSLContext}: for the metrics endpoint, whose HTTP server
     * (the JDK's) takes no Netty context. Client certificates are asked for as {@link TlsOptions#authClients} says
     * ({@link #needsClientCertificate}, {@link #wantsClientCertificate}).
     *
     * @param options the TLS options.
     * @return the JDK context.
     * @throws IllegalArgumentException as {@link #server} does.
     */
    public static SSLContext jdkContext(final TlsOptions options)
    {
        return ((JdkSslContext)server(options, SslProvider.JDK)).context();
    }

    /**
     * @param options the TLS options.
     * @return whether a client without a certificate is refused.
     */
    public static boolean needsClientCertificate(final TlsOptions options)
    {
        return options.authClients() == ClientAuthMode.YES;
    }

    /**
     * @param options the TLS options.
     * @return whether a client certificate is asked for but optional.
     */
    public static boolean wantsClientCertificate(final TlsOptions options)
    {
        return options.authClients() == ClientAuthMode.OPTIONAL;
    }

    private static SslContext build(final TlsOptions options, final SslProvider provider,
        final List<X509Certificate> chain, final List<X509Certificate> cas, final ClientAuth clientAuth)
    {
        try
        {
            final SslContextBuilder builder = SslContextBuilder.forServer(options.certFile().toFile(),
                options.keyFile().toFile(), options.keyPassword())
                .sslProvider(provider)
                .protocols(options.protocols().toArray(new String[0]))
                .clientAuth(clientAuth);
            if (!cas.isEmpty())
            {
                builder.trustManager(cas.toArray(new X509Certificate[0]));
            }
            if (!options.ciphers().isEmpty())
            {
                builder.ciphers(options.ciphers());
            }
            return builder.build();
        }
        catch (final SSLException | IllegalArgumentException e)
        {
            throw new IllegalArgumentException("--tls-key-file " + options.keyFile() + ": cannot use the private " +
                "key with --tls-cert-file " + options.certFile() + " (it must be a PEM PKCS#8 key; is " +
                "--tls-key-file-pass " + (options.keyPassword() == null ? "missing" : "wrong") + "?): " +
                reason(e), e);
        }
    }

    private static void selfCheck(final TlsOptions options, final SslProvider provider,
        final List<X509Certificate> chain, final List<X509Certificate> cas)
    {
        final SslContext check = build(options, provider, chain, cas, ClientAuth.NONE);
        try
        {
            final SslContext client = SslContextBuilder.forClient().sslProvider(provider)
                .trustManager(InsecureTrustManagerFactory.INSTANCE)
                .protocols(options.protocols().toArray(new String[0])).build();
            final SSLEngine c = client.newEngine(ByteBufAllocator.DEFAULT);
            final SSLEngine s = check.newEngine(ByteBufAllocator.DEFAULT);
            new MemoryHandshake(c, s).handshake();
        }
        catch (final SSLException e)
        {
            throw new IllegalArgumentException("--tls-cert-file " + options.certFile() + " and --tls-key-file " +
                options.keyFile() + " do not work together (does the certificate belong to this key?): " +
                reason(e), e);
        }
    }

    private static void readable(final String option, final Path file)
    {
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException(option + " " + file + ": no such file");
        }
        if (!Files.isReadable(file))
        {
            throw new IllegalArgumentException(option + " " + file + ": not readable by this user");
        }
    }

    private static List<X509Certificate> certificates(final String option, final Path file)
    {
        try (InputStream in = Files.newInputStream(file))
        {
            final List<X509Certificate> out = new ArrayList<>();
            for (final var c : CertificateFactory.getInstance("X.509").generateCertificates(in))
            {
                out.add((X509Certificate)c);
            }
            if (out.isEmpty())
            {
                throw new IllegalArgumentException(option + " " + file + ": no certificate in it");
            }
            return out;
        }
        catch (final IOException | GeneralSecurityException e)
        {
            throw new IllegalArgumentException(option + " " + file + ": not a PEM certificate: " + reason(e), e);
        }
    }

    /** Every certificate in the PEM files of a directory (OpenSSL's hashed names, or .pem/.crt). */
    private static List<X509Certificate> directory(final Path dir)
    {
        if (!Files.isDirectory(dir))
        {
            throw new IllegalArgumentException("--tls-ca-cert-dir " + dir + ": not a directory");
        }
        final List<X509Certificate> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir))
        {
            for (final Path f : files.sorted().toList())
            {
                final String name = f.getFileName().toString();
                if (Files.isRegularFile(f) && (name.endsWith(".pem") || name.endsWith(".crt") ||
                    name.matches("[0-9a-f]{8}\\.[0-9]+")))
                {
                    out.addAll(certificates("--tls-ca-cert-dir", f));
                }
            }
        }
        catch (final IOException e)
        {
            throw new IllegalArgumentException("--tls-ca-cert-dir " + dir + ": " + reason(e), e);
        }
        if (out.isEmpty())
        {
            throw new IllegalArgumentException("--tls-ca-cert-dir " + dir + ": no certificate in it (.pem, .crt " +
                "or OpenSSL's hashed names)");
        }
        return out;
    }

    private static void checkCiphers(final List<String> ciphers, final SslProvider provider)
    {
        if (ciphers.isEmpty())
        {
            return;
        }
        final Set<String> known = new HashSet<>();
        if (provider == SslProvider.JDK)
        {
            try
            {
                known.addAll(Arrays.asList(SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites()));
            }
            catch (final GeneralSecurityException e)
            {
                throw new IllegalStateException("the JDK has no default TLS context", e);
            }
        }
        for (final String c : ciphers)
        {
            final boolean ok = provider == SslProvider.JDK ? known.contains(c) : OpenSsl.isCipherSuiteAvailable(c);
            if (!ok)
            {
                throw new IllegalArgumentException("--tls-ciphers/--tls-ciphersuites: '" + c + "' is not a cipher " +
                    "suite this TLS engine (" + provider + ") offers");
            }
        }
    }

    private static String reason(final Throwable e)
    {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t)
        {
            t = t.getCause();
        }
        final String m = t.getMessage();
        return (m == null ? t.getClass().getSimpleName() : m).replace('\n', ' ');
    }
}
