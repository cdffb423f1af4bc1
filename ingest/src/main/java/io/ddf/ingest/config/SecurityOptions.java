package io.ddf.ingest.config;

import io.ddf.ingest.tls.ClientAuthMode;
import io.ddf.ingest.tls.TlsOptions;
import io.netty.handler.ssl.SslProvider;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ddf serve}'s TLS and ACL options, named as Redis names them so that a Redis configuration carries over:
 * {@code --tls-port}, {@code --tls-cert-file}, {@code --tls-key-file}, {@code --tls-key-file-pass},
 * {@code --tls-ca-cert-file}, {@code --tls-ca-cert-dir}, {@code --tls-auth-clients}, {@code --tls-protocols},
 * {@code --tls-ciphers}, {@code --tls-ciphersuites}, {@code --aclfile}; and ddf's {@code --tls-feed},
 * {@code --tls-metrics} (Redis's {@code --tls-replication} style) and {@code --tls-engine}.
 */
public final class SecurityOptions
{
    @Option(names = "--tls-port", paramLabel = "P", description = "Serve RESP over TLS on this port (default 0: " +
        "none). With it, --port 0 turns the plain port off.")
    private int tlsPort;

    @Option(names = "--tls-cert-file", paramLabel = "FILE", description = "The server's certificate chain (PEM).")
    private Path certFile;

    @Option(names = "--tls-key-file", paramLabel = "FILE", description = "Its private key (PEM, PKCS#8).")
    private Path keyFile;

    @Option(names = "--tls-key-file-pass", paramLabel = "PASS", description = "The key's password, if encrypted.")
    private String keyPass;

    @Option(names = "--tls-ca-cert-file", paramLabel = "FILE",
        description = "CA certificates (PEM) that sign client certificates.")
    private Path caCertFile;

    @Option(names = "--tls-ca-cert-dir", paramLabel = "DIR",
        description = "A directory of CA certificates (.pem, .crt or OpenSSL's hashed names).")
    private Path caCertDir;

    @Option(names = "--tls-auth-clients", paramLabel = "yes|no|optional", description = "Whether clients must " +
        "show a certificate the CA signed (default yes, as in Redis).")
    private String authClients = "yes";

    @Option(names = "--tls-protocols", paramLabel = "\"TLSv1.2 TLSv1.3\"",
        description = "Protocols allowed (default both).")
    private String protocols = "";

    @Option(names = "--tls-ciphers", paramLabel = "LIST", description = "TLS 1.2 cipher suites, colon-separated.")
    private String ciphers;

    @Option(names = "--tls-ciphersuites", paramLabel = "LIST",
        description = "TLS 1.3 cipher suites, colon-separated.")
    private String cipherSuites;

    @Option(names = "--tls-feed", paramLabel = "yes|no", description = "The raw feed speaks TLS too (default no).")
    private String tlsFeed = "no";

    @Option(names = "--tls-metrics", paramLabel = "yes|no",
        description = "The metrics endpoint speaks HTTPS (default no).")
    private String tlsMetrics = "no";

    @Option(names = "--tls-engine", paramLabel = "openssl|jdk", description = "TLS engine (default openssl: " +
        "BoringSSL, measured faster; jdk where it cannot load).")
    private String engine;

    @Option(names = "--tls-handshakes-per-second", paramLabel = "N", description = "New TLS handshakes started " +
        "per second; more wait their turn, so a flood of handshakes cannot starve connected clients (default 500; " +
        "0: no limit).")
    private int handshakesPerSecond = 500;

    @Option(names = "--aclfile", paramLabel = "FILE", description = "Users and their rights, in Redis's ACL file " +
        "format; a malformed file refuses to start, naming each line and reason.")
    private Path aclFile;

    /**
     * @param config the configuration to complete.
     * @throws IllegalArgumentException on a bad option, naming it.
     */
    public void applyTo(final ServerConfig config)
    {
        config.aclFile = aclFile;
        if (handshakesPerSecond < 0)
        {
            throw new IllegalArgumentException("--tls-handshakes-per-second must be 0 or more, got " +
                handshakesPerSecond);
        }
        config.tlsHandshakesPerSecond = handshakesPerSecond;
        if (tlsPort < 0 || tlsPort > 65535)
        {
            throw new IllegalArgumentException("--tls-port must be 0 to 65535, got " + tlsPort);
        }
        config.tlsFeed = yes("--tls-feed", tlsFeed);
        config.tlsMetrics = yes("--tls-metrics", tlsMetrics);
        final boolean any = tlsPort > 0 || config.tlsFeed || config.tlsMetrics;
        if (!any)
        {
            if (certFile != null || keyFile != null)
            {
                throw new IllegalArgumentException("--tls-cert-file and --tls-key-file need --tls-port (or " +
                    "--tls-feed yes, --tls-metrics yes)");
            }
            return;
        }
        final List<String> suites = new ArrayList<>(TlsOptions.parseCiphers(ciphers));
        suites.addAll(TlsOptions.parseCiphers(cipherSuites));
        config.tls = new TlsOptions(certFile, keyFile, keyPass, caCertFile, caCertDir,
            ClientAuthMode.parse(authClients), TlsOptions.parseProtocols(protocols), suites);
        config.tlsPort = tlsPort > 0 ? tlsPort : -1;
        if (engine != null)
        {
            config.tlsEngine = switch (engine.toLowerCase(Locale.ROOT))
            {
                case "openssl" -> SslProvider.OPENSSL;
                case "jdk" -> SslProvider.JDK;
                default -> throw new IllegalArgumentException("--tls-engine must be openssl or jdk, not '" +
                    engine + "'");
            };
        }
    }

    private static boolean yes(final String option, final String value)
    {
        return switch (value.toLowerCase(Locale.ROOT))
        {
            case "yes" -> true;
            case "no" -> false;
            default -> throw new IllegalArgumentException(option + " must be yes or no, not '" + value + "'");
        };
    }
}
