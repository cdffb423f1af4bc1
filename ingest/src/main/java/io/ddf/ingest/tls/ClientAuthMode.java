package io.ddf.ingest.tls;

import io.netty.handler.ssl.ClientAuth;

import java.util.Locale;

/** Redis's {@code --tls-auth-clients yes|no|optional}: whether a client must show a certificate the CA signed. */
public enum ClientAuthMode
{
    /** A client certificate is required (Redis's default). */
    YES(ClientAuth.REQUIRE),
    /** None is asked for. */
    NO(ClientAuth.NONE),
    /** One is asked for and checked if given, but a client without one is accepted. */
    OPTIONAL(ClientAuth.OPTIONAL);

    private final ClientAuth netty;

    ClientAuthMode(final ClientAuth netty)
    {
        this.netty = netty;
    }

    ClientAuth netty()
    {
        return netty;
    }

    /**
     * @param word {@code yes}, {@code no} or {@code optional}, any case.
     * @return the mode.
     * @throws IllegalArgumentException naming the option otherwise.
     */
    public static ClientAuthMode parse(final String word)
    {
        return switch (word.toLowerCase(Locale.ROOT))
        {
            case "yes" -> YES;
            case "no" -> NO;
            case "optional" -> OPTIONAL;
            default -> throw new IllegalArgumentException("--tls-auth-clients must be yes, no or optional, not '" +
                word + "'");
        };
    }
}
