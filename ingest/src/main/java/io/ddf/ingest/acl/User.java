package io.ddf.ingest.acl;

import java.util.List;
import java.util.function.IntFunction;

/**
 * One ACL user's rules: on or off, passwords (hashes), key and channel patterns, command permissions. Changed only
 * while it is being built (from a file line, or a copy staged by ACL SETUSER); once an {@link Identity} publishes it,
 * it is read by every event loop and never changed again, so a check needs no lock.
 */
public final class User
{
    private final String name;
    private boolean enabled;
    private boolean sanitizePayload = true;
    private final Passwords passwords;
    private final KeyPatterns keys;
    private final ChannelPatterns channels;
    private final CommandRules commands;

    User(final String name, final CommandCatalog catalog)
    {
        this(name, false, new Passwords(), new KeyPatterns(), new ChannelPatterns(), new CommandRules(catalog));
    }

    private User(final String name, final boolean enabled, final Passwords passwords, final KeyPatterns keys,
        final ChannelPatterns channels, final CommandRules commands)
    {
        this.name = name;
        this.enabled = enabled;
        this.passwords = passwords;
        this.keys = keys;
        this.channels = channels;
        this.commands = commands;
    }

    /** @return a copy to stage changes on (ACL SETUSER applies all of its rules or none). */
    User copy()
    {
        final User copy = new User(name, enabled, passwords.copy(), keys.copy(), channels.copy(), commands.copy());
        copy.sanitizePayload = sanitizePayload;
        return copy;
    }

    /**
     * Applies one rule, Redis's way (names are case-insensitive; an empty rule does nothing).
     *
     * @param op the rule.
     * @throws AclException with Redis's reason when the rule is malformed or names an unknown command.
     */
    void apply(final String op)
    {
        if (op.isEmpty())
        {
            return;
        }
        if (op.equalsIgnoreCase("on") || op.equalsIgnoreCase("off"))
        {
            enabled = op.equalsIgnoreCase("on");
        }
        else if (op.equalsIgnoreCase("sanitize-payload") || op.equalsIgnoreCase("skip-sanitize-payload"))
        {
            sanitizePayload = op.equalsIgnoreCase("sanitize-payload");
        }
        else if (op.equalsIgnoreCase("reset"))
        {
            passwords.apply("resetpass");
            keys.apply("resetkeys");
            channels.apply("resetchannels");
            enabled = false;
            sanitizePayload = true;
            commands.apply("-@all");
        }
        else if (op.equalsIgnoreCase("clearselectors"))
        {
            // there are never selectors to clear (they are refused)
            return;
        }
        else if (op.charAt(0) == '(')
        {
            throw new AclException(RuleErrors.SELECTORS);
        }
        else if (!passwords.apply(op) && !keys.apply(op) && !channels.apply(op) && !commands.apply(op))
        {
            throw RuleErrors.syntax();
        }
    }

    /** @return the user's name. */
    public String name()
    {
        return name;
    }

    /** @return whether AUTH as this user can succeed ({@code on}). */
    public boolean enabled()
    {
        return enabled;
    }

    /** @return whether any password authenticates ({@code nopass}). */
    public boolean noPass()
    {
        return passwords.noPass();
    }

    /**
     * @param password the bytes the client sent.
     * @return whether they authenticate this user (it being {@code on}).
     */
    boolean authenticates(final byte[] password)
    {
        return enabled && passwords.matches(password);
    }

    /**
     * @return whether {@link #check} allows every request: every command, every key ({@code +@all ~*}, the default
     *         user's rules). Computed each call; {@link Identity} keeps it for the rules it publishes.
     */
    boolean allowsEverything()
    {
        return keys.allKeys() && commands.allowsEverything();
    }

    /**
     * Checks a request against the user's command and key rules, as Redis does before running a command.
     *
     * @param spec the command the request runs (its subcommand's spec for {@code container sub ...}).
     * @param argc the number of arguments, the command name counted.
     * @param args the argument at a position (decoded one byte per character), asked for only when needed.
     * @return null when allowed, else why not.
     */
    public Denial check(final CommandSpec spec, final int argc, final IntFunction<String> args)
    {
        if (!commands.allows(spec, argc, args))
        {
            return Denial.command(spec.name());
        }
        final KeySpec k = spec.keys();
        if (!keys.allKeys() && k.hasKeys())
        {
            for (int i = k.first(); i < k.end(argc); i += k.step())
            {
                final String key = args.apply(i);
                if (!keys.allows(key, k.read(), k.write()))
                {
                    return Denial.key(key);
                }
            }
        }
        return null;
    }

    /** @return the flags ACL GETUSER lists. */
    public List<String> flags()
    {
        final List<String> flags = new java.util.ArrayList<>();
        flags.add(enabled ? "on" : "off");
        if (passwords.noPass())
        {
            flags.add("nopass");
        }
        flags.add(sanitizePayload ? "sanitize-payload" : "skip-sanitize-payload");
        return flags;
    }

    /** @return the password hashes, lower-case hex SHA-256. */
    public List<String> passwordHashes()
    {
        return passwords.hashes();
    }

    /** @return the command rules as ACL GETUSER shows them. */
    public String commandRules()
    {
        return commands.describe();
    }

    /** @return the key patterns as ACL GETUSER shows them. */
    public String keyPatterns()
    {
        return keys.describe();
    }

    /** @return the channel patterns as ACL GETUSER shows them. */
    public String channelPatterns()
    {
        return channels.describe();
    }

    /**
     * @return the user as an ACL file line and ACL LIST give it, e.g.
     *         {@code user default on nopass sanitize-payload ~* &* +@all}: rules that rebuild the same user.
     */
    public String describe()
    {
        final StringBuilder out = new StringBuilder("user ").append(name);
        flags().forEach(f -> out.append(' ').append(f));
        passwords.hashes().forEach(h -> out.append(" #").append(h));
        final String k = keys.describe();
        if (!k.isEmpty())
        {
            out.append(' ').append(k);
        }
        out.append(' ').append(channels.describe()).append(' ').append(commands.describe());
        return out.toString();
    }
}
