package io.ddf.ingest.security;

import io.ddf.ingest.acl.Acl;
import io.ddf.ingest.acl.CommandCatalog;
import io.ddf.ingest.acl.CommandSpec;
import io.ddf.ingest.acl.Denial;
import io.ddf.ingest.acl.Identity;
import io.ddf.ingest.acl.User;
import io.ddf.ingest.dispatch.Authorizer;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.resp.Replies;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Redis's ACL check in the conductor's one place for it: before AUTH only the {@code no-auth} commands (NOAUTH); after
 * it, the command against the connection's user's command rules, then each key at the command's key positions against
 * its key patterns. A user whose rules allow everything ({@code +@all ~*}, the default user's) is not checked further
 * ({@link Identity#unrestricted}), and the conductor does not ask again until the client's user or the rules change
 * ({@link #allowsEverything}), so this is off the path of such a user's commands. A refusal is Redis's NOPERM reply and an ACL LOG entry. A connection whose user was
 * deleted (ACL DELUSER, or gone from a reloaded file) is closed at its next command, as Redis closes it.
 */
public final class AclAuthorizer implements Authorizer
{
    private final Acl acl;
    private final CommandCatalog catalog;
    /** Each command's spec, found without hashing its name (containers resolve their subcommand per request). */
    private final Map<Command, CommandSpec> specs = new IdentityHashMap<>();
    /** The containers (CLIENT, CONFIG, ...), whose second word picks the spec. */
    private final Map<Command, Boolean> containers = new IdentityHashMap<>();
    /**
     * What {@link User#check} reads the arguments through, one per thread and reused: a lambda capturing each
     * command's arguments was the event loop's one allocation per command (16-19 bytes per BF.ADD, async-profiler's
     * alloc profile of {@code BF.ADD -P 16}; EventLoopAllocationTest).
     */
    private final FastThreadLocal<Arguments> arguments = new FastThreadLocal<>()
    {
        @Override
        protected Arguments initialValue()
        {
            return new Arguments();
        }
    };

    /** The arguments of the command being checked, as keys. */
    private static final class Arguments implements IntFunction<String>
    {
        private ByteBuf[] args;

        @Override
        public String apply(final int i)
        {
            return Replies.key(args[i]);
        }
    }

    /**
     * @param acl   the users.
     * @param table the commands served (their specs are {@code acl.catalog()}'s).
     */
    public AclAuthorizer(final Acl acl, final CommandTable table)
    {
        this.acl = acl;
        this.catalog = acl.catalog();
        for (final Command c : table.all())
        {
            final int id = catalog.id(c.name());
            specs.put(c, catalog.spec(id));
            if (catalog.isContainer(id))
            {
                containers.put(c, Boolean.TRUE);
            }
        }
    }

    @Override
    public boolean allowsEverything(final Session session)
    {
        final Identity identity = session.identity();
        return session.authenticated() && !identity.removed() && identity.unrestricted();
    }

    @Override
    public String refusal(final Session session, final Command command, final ByteBuf[] args)
    {
        if (!session.authenticated())
        {
            return command != null && command.noAuth() ? null : Replies.NOAUTH.content();
        }
        final Identity identity = session.identity();
        if (identity.removed())
        {
            // Redis closes the connections of a deleted user; the reply takes its place, then the connection closes
            final String error = "NOPERM User " + identity.name() + " was deleted: closing the connection";
            session.replies().readyThenClose(new io.netty.handler.codec.redis.ErrorRedisMessage(error));
            return error;
        }
        if (command == null || identity.unrestricted())
        {
            return null;
        }
        CommandSpec spec = specs.get(command);
        if (args.length > 1 && containers.containsKey(command))
        {
            spec = catalog.resolve(spec.name(), Replies.word(args[1]));
        }
        final User user = identity.user();
        final Arguments reader = arguments.get();
        reader.args = args;
        final Denial denial;
        try
        {
            denial = user.check(spec, args.length, reader);
        }
        finally
        {
            reader.args = null;
        }
        if (denial == null)
        {
            return null;
        }
        acl.log().record(denial.reason(), session.inMulti() ? "multi" : "toplevel", denial.object(),
            identity.name(), session.describe(), System.currentTimeMillis());
        return denial.error(identity.name());
    }
}
