package io.ddf.ingest.acl;

/**
 * Why a user may not run a request: the command itself, or one of its keys. The texts are Redis 7.2's: the client
 * gets {@code NOPERM User u has no permissions to run the 'cmd' command} or {@code NOPERM No permissions to access
 * a key} (the key's name is not echoed), ACL DRYRUN and ACL LOG name the key.
 *
 * @param reason {@code command} or {@code key}, as ACL LOG's {@code reason} field says.
 * @param object the command's full name or the key.
 */
public record Denial(String reason, String object)
{
    static Denial command(final String name)
    {
        return new Denial("command", name);
    }

    static Denial key(final String key)
    {
        return new Denial("key", key);
    }

    /**
     * @param user the user's name.
     * @return the error reply, {@code NOPERM ...}.
     */
    public String error(final String user)
    {
        return "NOPERM " + ("command".equals(reason) ? "User " + user + " has no permissions to run the '" + object +
            "' command" : "No permissions to access a key");
    }

    /**
     * @param user the user's name.
     * @return ACL DRYRUN's answer, which names the key.
     */
    public String verbose(final String user)
    {
        return "User " + user + " has no permissions to " + ("command".equals(reason) ? "run the '" + object +
            "' command" : "access the '" + object + "' key");
    }
}
