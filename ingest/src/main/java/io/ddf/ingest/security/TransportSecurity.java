package io.ddf.ingest.security;

import com.sun.net.httpserver.HttpsConfigurator;
import io.netty.channel.Channel;

/**
 * What secures the daemon's endpoints. The daemon's transports call {@link #secure} first
 * for every channel an endpoint accepts, so an implementation adds Netty's {@code SslHandler} at the front of its
 * pipeline (in front of the RESP connection, or of the raw feed's framing); the metrics endpoint takes an
 * {@link HttpsConfigurator} for its JDK HTTP server. {@link ServerSecurity} is the daemon's: TLS on the
 * {@code --tls-port} endpoint, and on the raw feed and the metrics endpoint when {@code --tls-feed} and
 * {@code --tls-metrics} ask for it; nothing elsewhere.
 */
public interface TransportSecurity
{
    /** The endpoints that accept connections. */
    enum Endpoint
    {
        /** The RESP port. */
        RESP,
        /** The RESP port over TLS ({@code --tls-port}). */
        RESP_TLS,
        /** The raw feed's port. */
        FEED
    }

    /**
     * @param endpoint the endpoint that accepted the channel.
     * @param channel  a channel just accepted, its pipeline still empty.
     */
    void secure(Endpoint endpoint, Channel channel);

    /** @return the metrics endpoint's HTTPS configuration, or null for plain HTTP. */
    HttpsConfigurator metrics();
}
