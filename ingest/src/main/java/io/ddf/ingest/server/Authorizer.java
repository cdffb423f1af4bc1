package io.ddf.ingest.server;

import io.netty.buffer.ByteBuf;

/**
 * Whether a connection may run a command: asked by the {@link Conductor} for every command, before it is queued
 * by MULTI or run, the one place a command is authorised. The daemon's default is {@link #PASSWORD}: with
 * {@code --requirepass}, nothing but the {@code no-auth} commands before AUTH.
 *
 * <p>Redis 6's ACL users plug in here: an implementation that reads the connection's user and checks the
 * command's {@linkplain Command#categories() ACL categories}, its name, and the keys at its
 * {@linkplain Command#firstKey() key positions} against the user's rules, answering {@code NOPERM ...}.
 */
@FunctionalInterface
interface Authorizer
{
    /** The password's rule: before AUTH only the commands flagged {@code no-auth}; after it, every command. */
    Authorizer PASSWORD = (session, command, args) ->
        session.authenticated() || command != null && command.noAuth() ? null : Replies.NOAUTH.content();

    /**
     * @param session the connection.
     * @param command the command, or null when its name is unknown.
     * @param args    the command's arguments (its name first).
     * @return null when it may run, else the error reply that refuses it ({@code NOAUTH ...}, {@code NOPERM ...}).
     */
    String refusal(Session session, Command command, ByteBuf[] args);
}
