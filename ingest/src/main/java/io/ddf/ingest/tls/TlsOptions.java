package io.ddf.ingest.tls;

import java.nio.file.Path;
import java.util.List;

/**
 * Redis's TLS options, as {@code ddf serve} takes them: the server's certificate chain and key (PEM, the key
 * PKCS#8, encrypted with {@code --tls-key-file-pass} if it is), the CA that signs client certificates (a PEM file
 * and/or a directory of them), whether clients must show one, and the protocols and cipher suites allowed.
 *
 * @param certFile     {@code --tls-cert-file}.
 * @param keyFile      {@code --tls-key-file}.
 * @param keyPassword  {@code --tls-key-file-pass}, or null for an unencrypted key.
 * @param caCertFile   {@code --tls-ca-cert-file}, or null.
 * @param caCertDir    {@code --tls-ca-cert-dir}, or null.
 * @param authClients  {@code --tls-auth-clients}.
 * @param protocols    {@code --tls-protocols}, e.g. {@code [TLSv1.2, TLSv1.3]}; empty for both.
 * @param ciphers      {@code --tls-ciphers} (TLS 1.2 suites) then {@code --tls-ciphersuites} (TLS 1.3 suites); empty
 *                     for the engine's defaults.
 */
public record TlsOptions(Path certFile, Path keyFile, String keyPassword, Path caCertFile, Path caCertDir,
    ClientAuthMode authClients, List<String> protocols, List<String> ciphers)
{
    /** The protocols Redis allows by default. */
    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.2", "TLSv1.3");

    /**
     * @throws IllegalArgumentException when the certificate or key is missing, or client certificates are asked
     *                                  for without a CA to check them.
     */
    public TlsOptions
    {
        if (certFile == null || keyFile == null)
        {
            throw new IllegalArgumentException("TLS needs --tls-cert-file and --tls-key-file");
        }
        if (authClients != ClientAuthMode.NO && caCertFile == null && caCertDir == null)
        {
            throw new IllegalArgumentException("--tls-auth-clients " + authClients.name().toLowerCase(
                java.util.Locale.ROOT) + " needs --tls-ca-cert-file or --tls-ca-cert-dir to check client " +
                "certificates (or --tls-auth-clients no)");
        }
        protocols = protocols.isEmpty() ? DEFAULT_PROTOCOLS : List.copyOf(protocols);
        ciphers = List.copyOf(ciphers);
    }

    /**
     * @param words Redis's space-separated list, e.g. {@code "TLSv1.2 TLSv1.3"}.
     * @return the protocols.
     * @throws IllegalArgumentException on a protocol other than TLSv1.2 or TLSv1.3.
     */
    public static List<String> parseProtocols(final String words)
    {
        final List<String> out = new java.util.ArrayList<>();
        for (final String w : words.trim().split("\\s+"))
        {
            if (w.isEmpty())
            {
                continue;
            }
            final String canonical = switch (w.toLowerCase(java.util.Locale.ROOT))
            {
                case "tlsv1.2" -> "TLSv1.2";
                case "tlsv1.3" -> "TLSv1.3";
                default -> throw new IllegalArgumentException("--tls-protocols: '" + w + "' is not offered (TLSv1.2 " +
                    "and TLSv1.3 are; older ones are broken)");
            };
            out.add(canonical);
        }
        return out;
    }

    /**
     * @param list a colon-separated list of cipher suite names (OpenSSL or IANA spelling), or null.
     * @return the names.
     */
    public static List<String> parseCiphers(final String list)
    {
        if (list == null || list.isBlank())
        {
            return List.of();
        }
        return List.of(list.trim().split(":"));
    }
}
