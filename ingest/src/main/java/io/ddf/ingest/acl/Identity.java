package io.ddf.ingest.acl;

/**
 * What a connection is authenticated as: a user name whose rules may change under it (ACL SETUSER, ACL LOAD apply
 * to connections already authenticated, as in Redis), or that may be deleted (its connections are then closed).
 * The connection keeps the identity and reads {@link #user()} (one volatile read) for each command.
 */
public final class Identity
{
    private final String name;
    private volatile User user;
    private volatile boolean removed;

    Identity(final User user)
    {
        this.name = user.name();
        this.user = user;
    }

    /** @return the user's name. */
    public String name()
    {
        return name;
    }

    /** @return the user's current rules. */
    public User user()
    {
        return user;
    }

    /** @return whether the user was deleted (ACL DELUSER, or missing from a reloaded file): close its connections. */
    public boolean removed()
    {
        return removed;
    }

    void publish(final User rules)
    {
        this.user = rules;
    }

    void remove()
    {
        removed = true;
    }
}
