package io.ddf.ingest.commands.acl;

import io.ddf.ingest.acl.AclException;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.dispatch.Session;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.RespError;
import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.List;

/** The ACL command: its declaration, and {@link AclSubcommands} run for the connection's user. */
public final class AclCommands
{
    private final java.util.function.Supplier<io.ddf.ingest.acl.Acl> acl;
    private final java.nio.file.Path file;
    /** Made at the first ACL command: the users are made once every command is registered (their rules name them). */
    private AclSubcommands subcommands;

    /**
     * @param acl  the users, once made.
     * @param file the ACL file (ACL LOAD, ACL SAVE), or null.
     */
    public AclCommands(final java.util.function.Supplier<io.ddf.ingest.acl.Acl> acl, final java.nio.file.Path file)
    {
        this.acl = acl;
        this.file = file;
    }

    private synchronized AclSubcommands subcommands()
    {
        if (subcommands == null)
        {
            subcommands = new AclSubcommands(acl.get(), file);
        }
        return subcommands;
    }

    /** @param table where to register ACL. */
    public void register(final CommandTable table)
    {
        table.add(Command.keyless("acl", -2, List.of("noscript", "loading", "stale"), "server",
            "Users and their rights: WHOAMI, USERS, LIST, CAT, SETUSER, DELUSER, GETUSER, LOAD, SAVE, LOG, DRYRUN, " +
                "GENPASS.", this::acl).subcommands(Command.Subcommand.of("acl|whoami", "@fast"),
                Command.Subcommand.of("acl|cat", "@slow"), Command.Subcommand.of("acl|genpass", "@slow"),
                Command.Subcommand.of("acl|help", "@slow"), admin("acl|users"), admin("acl|list"), admin("acl|getuser"),
                admin("acl|setuser"), admin("acl|deluser"), admin("acl|load"), admin("acl|save"), admin("acl|log"),
                admin("acl|dryrun")));
    }

    private static Command.Subcommand admin(final String name)
    {
        return Command.Subcommand.of(name, "@admin", "@slow", "@dangerous");
    }

    private void acl(final Session session, final ByteBuf[] args)
    {
        final List<String> words = new ArrayList<>(args.length);
        for (final ByteBuf arg : args)
        {
            words.add(Replies.key(arg));
        }
        try
        {
            session.replies().ready(subcommands().execute(session.identity().name(), words));
        }
        catch (final AclException e)
        {
            throw new RespError(e.getMessage());
        }
    }
}
