package io.ddf.ingest.server;

import io.ddf.ingest.security.ServerSecurity;

import java.util.function.Supplier;

/**
 * The daemon's users and TLS for the commands that read them (AUTH, HELLO, ACL), which are registered before the
 * users can be made: the ACL's rules name the commands served. Set once, at start-up, before the daemon listens.
 */
final class SecurityHolder implements Supplier<ServerSecurity>
{
    private ServerSecurity security;

    /** @param made the users and TLS. */
    void set(final ServerSecurity made)
    {
        this.security = made;
    }

    @Override
    public ServerSecurity get()
    {
        if (security == null)
        {
            throw new IllegalStateException("the users are read before start-up made them");
        }
        return security;
    }
}
