package io.ddf.ingest.security;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import io.ddf.ingest.acl.Acl;
import io.ddf.ingest.acl.AclFileException;
import io.ddf.ingest.acl.AuthFailures;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.tls.ReloadableTls;
import io.ddf.ingest.tls.TlsContexts;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;

import java.util.function.Consumer;

/**
 * The daemon's users and TLS, made once at start-up: the {@link Acl} (from {@code --aclfile} and the password),
 * the ACL command, AUTH's per-user throttle, and the TLS context that SIGHUP reloads. Start-up fails, naming the
 * file, line and reason, when the ACL file or a certificate or key is bad.
 */
public final class ServerSecurity implements TransportSecurity
{
    /** Longest a TLS handshake may take when --auth-timeout is 0 (never): a handshake is never left open. */
    private static final long DEFAULT_HANDSHAKE_MILLIS = 10_000;

    /** Redis 7's reason when CONFIG SET of a tls-* parameter cannot be applied. */
    public static final String UNABLE_TO_UPDATE_TLS = "Unable to update TLS configuration. Check server logs.";

    private final ServerConfig config;
    private final Acl acl;
    private final AuthFailures failures = new AuthFailures();
    private final ReloadableTls tls;

    /**
     * @param config the configuration.
     * @param table  the commands served.
     * @param log    where reloads and refusals are reported.
     * @throws IllegalArgumentException naming the ACL file's lines, or the TLS file, and what is wrong.
     */
    public ServerSecurity(final ServerConfig config, final CommandTable table, final Consumer<String> log)
    {
        this.config = config;
        try
        {
            this.acl = Acl.create(AclCatalog.of(table), config.requirePass, config.aclFile);
        }
        catch (final AclFileException e)
        {
            throw new IllegalArgumentException("--aclfile: " + String.join("; ", e.errors()), e);
        }
        if (config.tls != null)
        {
            tls = new ReloadableTls(config.tls, config.tlsEngine != null ? config.tlsEngine :
                TlsContexts.preferredProvider(), log);
            ReloadableTls.onHangup(tls::reload, log);
        }
        else
        {
            tls = null;
        }
    }

    /** @return the users. */
    public Acl acl()
    {
        return acl;
    }

    /**
     * CONFIG SET of the TLS files, Redis's way: the files named (the same path too) are read again, and the
     * certificate and key are used for new handshakes when they load, else nothing changes.
     *
     * @param files {@code tls-cert-file}, {@code tls-key-file}, {@code tls-ca-cert-file}, {@code tls-ca-cert-dir}
     *              (lower case) to their new paths; the others keep theirs.
     * @return null when applied; else the reason, in Redis's words: the TLS configuration could not be updated.
     */
    public String setTlsFiles(final java.util.Map<String, java.nio.file.Path> files)
    {
        if (tls == null)
        {
            return "TLS is not enabled (start with --tls-port and the tls-* files)";
        }
        final io.ddf.ingest.tls.TlsOptions now = tls.options();
        final io.ddf.ingest.tls.TlsOptions next;
        try
        {
            next = new io.ddf.ingest.tls.TlsOptions(files.getOrDefault("tls-cert-file", now.certFile()),
                files.getOrDefault("tls-key-file", now.keyFile()), now.keyPassword(),
                files.getOrDefault("tls-ca-cert-file", now.caCertFile()),
                files.getOrDefault("tls-ca-cert-dir", now.caCertDir()), now.authClients(), now.protocols(),
                now.ciphers());
        }
        catch (final IllegalArgumentException e)
        {
            return UNABLE_TO_UPDATE_TLS;
        }
        return tls.reload(next) ? null : UNABLE_TO_UPDATE_TLS;
    }

    /** @return failed AUTHs per user. */
    public AuthFailures failures()
    {
        return failures;
    }

    /**
     * A TLS handler for a new connection: the context current now (so a reload applies to new handshakes only),
     * and a handshake that does not finish within --auth-timeout closes the connection.
     *
     * @param channel the connection.
     * @return its handler, to go first in its pipeline.
     */
    SslHandler sslHandler(final Channel channel)
    {
        final SslHandler handler = tls.newHandler(channel.alloc());
        handler.setHandshakeTimeoutMillis(config.authTimeoutSeconds > 0 ? config.authTimeoutSeconds * 1000L :
            DEFAULT_HANDSHAKE_MILLIS);
        return handler;
    }

    /**
     * The first handler of a TLS connection: its TLS handler, admitted at {@code --tls-handshakes-per-second}
     * (shared out among the event loops) when there is a limit.
     *
     * @param channel the connection.
     * @return the handler to add first.
     */
    io.netty.channel.ChannelHandler tlsFront(final Channel channel)
    {
        if (config.tlsHandshakesPerSecond <= 0)
        {
            return sslHandler(channel);
        }
        return new io.ddf.ingest.tls.HandshakeGate(() -> sslHandler(channel),
            (double)config.tlsHandshakesPerSecond / Math.max(1, config.ioThreads));
    }

    @Override
    public void secure(final Endpoint endpoint, final Channel channel)
    {
        if (endpoint == Endpoint.RESP_TLS || endpoint == Endpoint.FEED && config.tlsFeed)
        {
            channel.pipeline().addLast(tlsFront(channel));
        }
    }

    @Override
    public HttpsConfigurator metrics()
    {
        return config.tlsMetrics ? httpsConfigurator() : null;
    }

    /** @return HTTPS for the metrics endpoint (the JDK's engine: its HTTP server is the JDK's). */
    private HttpsConfigurator httpsConfigurator()
    {
        return new HttpsConfigurator(TlsContexts.jdkContext(config.tls))
        {
            @Override
            public void configure(final HttpsParameters params)
            {
                final javax.net.ssl.SSLParameters p = getSSLContext().getDefaultSSLParameters();
                // one or the other: each setter clears what the other set
                if (TlsContexts.needsClientCertificate(config.tls))
                {
                    p.setNeedClientAuth(true);
                }
                else
                {
                    p.setWantClientAuth(TlsContexts.wantsClientCertificate(config.tls));
                }
                p.setProtocols(config.tls.protocols().toArray(new String[0]));
                params.setSSLParameters(p);
            }
        };
    }

    /** @return for the start-up line: the TLS engine and the users. */
    public String describe()
    {
        final StringBuilder out = new StringBuilder();
        if (tls != null)
        {
            out.append(", TLS engine ").append(tls.provider() == io.netty.handler.ssl.SslProvider.OPENSSL ?
                "openssl (BoringSSL)" : "jdk").append(", client certificates ")
                .append(config.tls.authClients().name().toLowerCase(java.util.Locale.ROOT));
        }
        if (config.aclFile != null)
        {
            out.append(", ").append(acl.names().size()).append(" ACL users from ").append(config.aclFile);
        }
        return out.toString();
    }
}
