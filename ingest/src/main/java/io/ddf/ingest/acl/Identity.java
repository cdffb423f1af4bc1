package io.ddf.ingest.acl;

/**
 * What a connection is authenticated as: a user name whose rules may change under it (ACL SETUSER, ACL LOAD apply
 * to connections already authenticated, as in Redis), or that may be deleted (its connections are then closed).
 * The connection keeps the identity; the ACL check reads {@link #unrestricted()} once per AUTH and change of the rules
 * (the conductor caches the answer until {@code Acl}'s next change), and {@link #user()} for each command when the
 * rules restrict it.
 */
public final class Identity
{
    private final String name;
    private volatile User user;
    /** Whether {@link #user}'s rules allow every request ({@link User#allowsEverything}). */
    private volatile boolean unrestricted;
    private volatile boolean removed;

    Identity(final User user)
    {
        this.name = user.name();
        this.user = user;
        this.unrestricted = user.allowsEverything();
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

    /**
     * @return whether the user's current rules allow every command on every key ({@code +@all ~*}): no request
     *         needs checking against them.
     */
    public boolean unrestricted()
    {
        return unrestricted;
    }

    /** @return whether the user was deleted (ACL DELUSER, or missing from a reloaded file): close its connections. */
    public boolean removed()
    {
        return removed;
    }

    void publish(final User rules)
    {
        // narrowed first: a reader never pairs the new rules with the old rules' freedom
        this.unrestricted = false;
        this.user = rules;
        this.unrestricted = rules.allowsEverything();
    }

    void remove()
    {
        removed = true;
    }
}
