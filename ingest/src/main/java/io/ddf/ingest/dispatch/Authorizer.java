package io.ddf.ingest.dispatch;


import io.netty.buffer.ByteBuf;

/**
 * Whether a connection may run a command: asked by the {@link Conductor} before a command is queued by MULTI or
 * run, the one place a command is authorised; for every command, except while the client's user may run everything
 * ({@link #allowsEverything}, asked again after an AUTH or a change of the rules). The daemon's is the ACL's
 * ({@code io.ddf.ingest.security.AclAuthorizer}): it reads the connection's user and checks the command's
 * {@linkplain Command#categories() ACL categories}, its name, and the keys at its
 * {@linkplain Command#firstKey() key positions} against the user's rules, answering {@code NOAUTH ...} before AUTH
 * and {@code NOPERM ...} for what the user may not run.
 */
@FunctionalInterface
public interface Authorizer
{
    /**
     * @param session the connection.
     * @param command the command, or null when its name is unknown.
     * @param args    the command's arguments (its name first).
     * @return null when it may run, else the error reply that refuses it ({@code NOAUTH ...}, {@code NOPERM ...}).
     */
    String refusal(Session session, Command command, ByteBuf[] args);

    /**
     * @param session the connection.
     * @return whether the client may run every command on every key now (authenticated as a user whose rules allow
     *     everything, {@code +@all ~*}, the default user's, and not deleted): the conductor then skips
     *     {@link #refusal} for its commands until the client's user or any user's rules change.
     */
    default boolean allowsEverything(final Session session)
    {
        return false;
    }
}
