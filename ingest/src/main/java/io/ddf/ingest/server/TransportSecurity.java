package io.ddf.ingest.server;

import com.sun.net.httpserver.HttpsConfigurator;
import io.netty.channel.Channel;

/**
 * What secures the daemon's endpoints: the seam for issue 23's TLS. {@link Transports} calls {@link #secure} first
 * for every channel an endpoint accepts, so an implementation adds Netty's {@code SslHandler} at the front of its
 * pipeline (in front of the RESP connection, or of the raw feed's framing); the metrics endpoint takes an
 * {@link HttpsConfigurator} for its JDK HTTP server. The default, {@link #PLAIN}, adds nothing.
 */
interface TransportSecurity
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

    /** Plain TCP and HTTP everywhere. */
    TransportSecurity PLAIN = new TransportSecurity()
    {
        @Override
        public void secure(final Endpoint endpoint, final Channel channel)
        {
        }

        @Override
        public HttpsConfigurator metrics()
        {
            return null;
        }
    };

    /**
     * @param endpoint the endpoint that accepted the channel.
     * @param channel  a channel just accepted, its pipeline still empty.
     */
    void secure(Endpoint endpoint, Channel channel);

    /** @return the metrics endpoint's HTTPS configuration, or null for plain HTTP. */
    HttpsConfigurator metrics();
}
