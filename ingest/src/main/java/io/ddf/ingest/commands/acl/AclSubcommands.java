package io.ddf.ingest.commands.acl;

import io.ddf.ingest.acl.Acl;
import io.ddf.ingest.acl.AclException;
import io.ddf.ingest.acl.AclFileException;
import io.ddf.ingest.acl.CommandSpec;
import io.ddf.ingest.acl.Denial;
import io.ddf.ingest.acl.User;
import io.ddf.ingest.resp.Replies;
import io.netty.handler.codec.redis.RedisMessage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ACL command's subcommands over the {@code acl} model, as Redis answers them: WHOAMI, USERS, LIST, CAT, SETUSER,
 * DELUSER, GETUSER, LOAD, SAVE, LOG, DRYRUN, GENPASS, HELP, each reply a RESP value ({@link Replies}) written in the
 * client's protocol. Arguments arrive decoded one byte per character (ISO-8859-1); errors are thrown as
 * {@link AclException} whose message is the whole error reply ({@code ERR ...}).
 */
public final class AclSubcommands
{
    private static final List<String> HELP = List.of(
        "ACL <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "CAT [<category>]", "    List all commands that belong to <category>, or all command categories",
        "    when no category is specified.",
        "DELUSER <username> [<username> ...]", "    Delete a list of users.",
        "DRYRUN <username> <command> [<arg> ...]",
        "    Returns whether the user can execute the given command without executing the command.",
        "GETUSER <username>", "    Get the user's details.",
        "GENPASS [<bits>]", "    Generate a secure 256-bit user password. The optional `bits` argument can",
        "    be used to specify a different size.",
        "LIST", "    Show users details in config file format.",
        "LOAD", "    Reload users from the ACL file.",
        "LOG [<count> | RESET]", "    Show the ACL log entries.",
        "SAVE", "    Save the current config to the ACL file.",
        "SETUSER <username> <attribute> [<attribute> ...]",
        "    Create or modify a user with the specified attributes.",
        "USERS", "    List all the registered usernames.",
        "WHOAMI", "    Return the current connection username.",
        "HELP", "    Print this help.");

    private final Acl acl;
    private final Path file;

    /**
     * @param acl  the users.
     * @param file the ACL file (for SAVE), or null.
     */
    public AclSubcommands(final Acl acl, final Path file)
    {
        this.acl = acl;
        this.file = file;
    }

    /**
     * @param caller the calling connection's user name.
     * @param args   {@code ACL} and its arguments.
     * @return the reply.
     * @throws AclException with the error reply.
     */
    public RedisMessage execute(final String caller, final List<String> args)
    {
        final String sub = args.size() > 1 ? args.get(1).toLowerCase(Locale.ROOT) : "";
        final int argc = args.size();
        try
        {
            switch (sub)
            {
                case "whoami" ->
                {
                    if (argc == 2)
                    {
                        return Replies.keyBulk(caller);
                    }
                }
                case "users" ->
                {
                    if (argc == 2)
                    {
                        return strings(acl.names());
                    }
                }
                case "list" ->
                {
                    if (argc == 2)
                    {
                        return strings(acl.describe());
                    }
                }
                case "cat" ->
                {
                    if (argc == 2 || argc == 3)
                    {
                        final List<String> names = acl.category(argc == 3 ? args.get(2) : null);
                        if (names == null)
                        {
                            throw new AclException("ERR Unknown category '" + cut(args.get(2)) + "'");
                        }
                        return strings(names);
                    }
                }
                case "setuser" ->
                {
                    if (argc >= 3)
                    {
                        acl.setUser(args.get(2), args.subList(3, argc));
                        return Replies.OK;
                    }
                }
                case "deluser" ->
                {
                    if (argc >= 3)
                    {
                        return Replies.integer(acl.deleteUsers(args.subList(2, argc)));
                    }
                }
                case "getuser" ->
                {
                    if (argc == 3)
                    {
                        return getUser(args.get(2));
                    }
                }
                case "load" ->
                {
                    if (argc == 2)
                    {
                        return load();
                    }
                }
                case "save" ->
                {
                    if (argc == 2)
                    {
                        return save();
                    }
                }
                case "log" ->
                {
                    if (argc == 2 || argc == 3)
                    {
                        return log(argc == 3 ? args.get(2) : null);
                    }
                }
                case "dryrun" ->
                {
                    if (argc >= 4)
                    {
                        return dryRun(args.get(2), args.subList(3, argc));
                    }
                }
                case "genpass" ->
                {
                    if (argc == 2 || argc == 3)
                    {
                        return Replies.keyBulk(acl.generatePassword(argc == 3 ? integer(args.get(2)) : 256));
                    }
                }
                case "help" ->
                {
                    if (argc == 2)
                    {
                        return Replies.statuses(HELP);
                    }
                }
                default ->
                {
                    // falls to the syntax error below
                }
            }
        }
        catch (final AclException e)
        {
            throw e.getMessage().startsWith("ERR ") ? e : new AclException("ERR " + e.getMessage());
        }
        catch (final AclFileException e)
        {
            throw new AclException("ERR " + String.join(". ", e.errors()) + ". WARNING: ACL errors detected, no " +
                "change to the previously active ACL rules was performed");
        }
        throw new AclException("ERR unknown subcommand or wrong number of arguments for '" +
            cut(args.size() > 1 ? args.get(1) : "") + "'. Try ACL HELP.");
    }

    private RedisMessage getUser(final String name)
    {
        final User u = acl.user(name);
        if (u == null)
        {
            return Replies.nil();
        }
        // a map in RESP3 (its flags an array, as Redis 7 sends them), a flat array of name, value in RESP2
        return Replies.map(List.of(Replies.bulk("flags"), strings(u.flags()), Replies.bulk("passwords"),
            strings(u.passwordHashes()), Replies.bulk("commands"), Replies.keyBulk(u.commandRules()),
            Replies.bulk("keys"), Replies.keyBulk(u.keyPatterns()), Replies.bulk("channels"),
            Replies.keyBulk(u.channelPatterns()), Replies.bulk("selectors"), Replies.empty()));
    }

    private RedisMessage load()
    {
        acl.load();
        return Replies.OK;
    }

    /** ACL SAVE: every user as a file line, written to a temporary file renamed over the ACL file. */
    private RedisMessage save()
    {
        if (file == null)
        {
            throw new AclException("ERR This instance is not configured to use an ACL file: start it with " +
                "--aclfile FILE");
        }
        final Path temp = file.resolveSibling(file.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        try
        {
            Files.write(temp, (String.join("\n", acl.describe()) + "\n").getBytes(StandardCharsets.ISO_8859_1));
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return Replies.OK;
        }
        catch (final IOException e)
        {
            try
            {
                Files.deleteIfExists(temp);
            }
            catch (final IOException ignored)
            {
                // the error below is the one to report
            }
            throw new AclException("ERR There was an error trying to save the ACLs (" + file + ": " + e + ")");
        }
    }

    private RedisMessage log(final String argument)
    {
        int count = 10;
        if (argument != null)
        {
            if (argument.equalsIgnoreCase("reset"))
            {
                acl.log().reset();
                return Replies.OK;
            }
            count = (int)Math.max(0, Math.min(Integer.MAX_VALUE, integer(argument)));
        }
        final List<RedisMessage> entries = new ArrayList<>();
        for (final Map<String, Object> entry : acl.log().newest(count, System.currentTimeMillis()))
        {
            final List<RedisMessage> fields = new ArrayList<>();
            entry.forEach((k, v) ->
            {
                fields.add(Replies.bulk(k));
                fields.add(v instanceof Long l ? Replies.integer(l) : v instanceof Double d ? Replies.dbl(d) :
                    Replies.keyBulk(String.valueOf(v)));
            });
            entries.add(Replies.map(fields));
        }
        return Replies.array(entries);
    }

    private RedisMessage dryRun(final String name, final List<String> request)
    {
        final User u = acl.user(name);
        if (u == null)
        {
            throw new AclException("ERR User '" + cut(name) + "' not found");
        }
        final CommandSpec spec = acl.catalog().resolve(request.get(0), request.size() > 1 ? request.get(1) : null);
        if (spec == null)
        {
            throw new AclException("ERR Command '" + cut(request.get(0)) + "' not found");
        }
        final Denial denial = u.check(spec, request.size(), request::get);
        return denial == null ? Replies.OK : Replies.keyBulk(denial.verbose(name));
    }

    private static RedisMessage strings(final List<String> texts)
    {
        final List<RedisMessage> items = new ArrayList<>(texts.size());
        texts.forEach(t -> items.add(Replies.keyBulk(t)));
        return Replies.array(items);
    }

    private static long integer(final String s)
    {
        try
        {
            return Long.parseLong(s);
        }
        catch (final NumberFormatException e)
        {
            throw new AclException("ERR value is not an integer or out of range");
        }
    }

    private static String cut(final String s)
    {
        return s.length() > 128 ? s.substring(0, 128) : s;
    }
}
