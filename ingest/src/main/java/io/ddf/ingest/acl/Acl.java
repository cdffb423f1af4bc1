package io.ddf.ingest.acl;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The daemon's users, Redis's ACL: who may authenticate with what, and what each may run on which keys.
 *
 * <p>Without an ACL file there is one user, {@code default}: {@code on ~* &* +@all}, with the daemon's password
 * ({@code --requirepass-file}) or {@code nopass} when there is none (then every connection starts authenticated as
 * it, as in Redis). An ACL file ({@code --aclfile}) defines the users; when it has no {@code user default} line the
 * default user is made as above, and a file that defines it beside a password given to the daemon is refused (the
 * default user's password must come from one place). {@code user default off} leaves only named users.
 *
 * <p>Reads (authentication, checks) take no lock: the user table is an immutable map swapped whole, and each
 * user's rules are an immutable snapshot held by its {@link Identity}. Changes (ACL SETUSER, DELUSER, LOAD) are
 * serialised; rules changed under connections apply to their next command, as in Redis.
 */
public final class Acl
{
    /** The user every connection starts as. */
    public static final String DEFAULT_USER = "default";
    private static final int MOST_GENPASS_BITS = 4096;

    private final CommandCatalog catalog;
    private final Path file;
    /** {@code #hash} of the daemon's password, or null; never the clear text. */
    private final String defaultPasswordRule;
    private final Identity defaultIdentity;
    private final AclLog log = new AclLog();
    private final SecureRandom random = new SecureRandom();
    private volatile Map<String, Identity> users;
    /** Told after every change of the users or their rules ({@link #onChange}). */
    private volatile Runnable changed = () ->
    {
    };

    private Acl(final CommandCatalog catalog, final Path file, final String password)
    {
        this.catalog = catalog;
        this.file = file;
        this.defaultPasswordRule = password == null ? null :
            "#" + Passwords.hash(password.getBytes(StandardCharsets.UTF_8));
        this.defaultIdentity = new Identity(defaultUser());
        this.users = Map.of(DEFAULT_USER, defaultIdentity);
    }

    /**
     * @param catalog  the commands served.
     * @param password the default user's password (UTF-8, as AUTH compares it today), or null for nopass.
     * @param file     the ACL file, or null.
     * @return the users, loaded from the file if there is one.
     * @throws AclFileException when the file cannot be read or has errors (each with its line and reason).
     */
    public static Acl create(final CommandCatalog catalog, final String password, final Path file)
    {
        final Acl acl = new Acl(catalog, file, password);
        if (file != null)
        {
            acl.load();
        }
        return acl;
    }

    private User defaultUser()
    {
        final User user = new User(DEFAULT_USER, catalog);
        for (final String rule : List.of("+@all", "~*", "&*", "on", "nopass"))
        {
            user.apply(rule);
        }
        if (defaultPasswordRule != null)
        {
            user.apply("resetpass");
            user.apply(defaultPasswordRule);
        }
        return user;
    }

    /** @return the commands rules may name. */
    public CommandCatalog catalog()
    {
        return catalog;
    }

    /** @return the refusals log. */
    public AclLog log()
    {
        return log;
    }

    /** @return the default user's identity. */
    public Identity defaultIdentity()
    {
        return defaultIdentity;
    }

    /** @return whether a new connection starts authenticated (as {@code default}: on and nopass). */
    public boolean defaultAuthenticates()
    {
        final User user = defaultIdentity.user();
        return user.enabled() && user.noPass();
    }

    /**
     * @param name     the user named by AUTH or HELLO.
     * @param password the password's bytes.
     * @return the identity, or null when there is no such user, it is off, or the password is wrong (one answer
     *         for all three, Redis's WRONGPASS, so that AUTH does not tell which user names exist).
     */
    public Identity authenticate(final String name, final byte[] password)
    {
        final Identity identity = users.get(name);
        return identity != null && identity.user().authenticates(password) ? identity : null;
    }

    /**
     * @param name a user name.
     * @return whether such a user exists (for throttling per user, not for replies).
     */
    public boolean exists(final String name)
    {
        return users.containsKey(name);
    }

    /**
     * @param listener told, on the changing thread, after every change of the users or their rules (ACL SETUSER,
     *                 DELUSER, LOAD), once the change is visible: the conductor's cue to check each client's user
     *                 again at its next command.
     */
    public void onChange(final Runnable listener)
    {
        this.changed = listener;
    }

    /**
     * ACL LOAD: rereads the ACL file; on any error nothing changes.
     *
     * @throws AclException when there is no ACL file.
     * @throws AclFileException listing every error.
     */
    public synchronized void load()
    {
        if (file == null)
        {
            throw new AclException("This instance is not configured to use an ACL file: start it with --aclfile " +
                "FILE");
        }
        final Map<String, User> loaded = AclFile.parse(file.toString(), AclFile.read(file), catalog);
        if (loaded.containsKey(DEFAULT_USER) && defaultPasswordRule != null)
        {
            throw new AclFileException(List.of(file + ": defines the user 'default', and the daemon was also " +
                "given a password (--requirepass-file, --requirepass or DDF_REQUIREPASS): give the default user's " +
                "password in one place"));
        }
        final Map<String, Identity> next = new TreeMap<>();
        next.put(DEFAULT_USER, defaultIdentity);
        for (final User user : loaded.values())
        {
            if (!user.name().equals(DEFAULT_USER))
            {
                final Identity old = users.get(user.name());
                next.put(user.name(), old == null ? new Identity(user) : old);
            }
        }
        // publish the rules only once the whole file is known to be good
        defaultIdentity.publish(loaded.getOrDefault(DEFAULT_USER, defaultUser()));
        loaded.values().forEach(u ->
        {
            if (!u.name().equals(DEFAULT_USER))
            {
                next.get(u.name()).publish(u);
            }
        });
        users.forEach((name, identity) ->
        {
            if (!next.containsKey(name))
            {
                identity.remove();
            }
        });
        users = Collections.unmodifiableMap(next);
        changed.run();
    }

    /**
     * ACL SETUSER: creates the user (off, no password, no keys, no commands) or changes it; all rules apply or none.
     *
     * @param name  the user.
     * @param rules its rules, in order.
     * @throws AclException with Redis's words naming the first rule refused.
     */
    public synchronized void setUser(final String name, final List<String> rules)
    {
        if (name.isEmpty() || Rules.hasSpaces(name))
        {
            throw new AclException("Usernames can't contain spaces or null characters");
        }
        final Identity existing = users.get(name);
        final User staged = existing == null ? new User(name, catalog) : existing.user().copy();
        for (final String rule : rules)
        {
            try
            {
                staged.apply(rule);
            }
            catch (final AclException e)
            {
                throw new AclException("Error in ACL SETUSER modifier '" + AclFile.shown(rule) + "': " +
                    e.getMessage());
            }
        }
        if (existing != null)
        {
            existing.publish(staged);
        }
        else
        {
            final Map<String, Identity> next = new TreeMap<>(users);
            next.put(name, new Identity(staged));
            users = Collections.unmodifiableMap(next);
        }
        changed.run();
    }

    /**
     * ACL DELUSER.
     *
     * @param names the users.
     * @return how many existed and were deleted (their connections are to be closed).
     * @throws AclException when {@code default} is among them (then nothing is deleted).
     */
    public synchronized int deleteUsers(final List<String> names)
    {
        if (names.contains(DEFAULT_USER))
        {
            throw new AclException("The 'default' user cannot be removed");
        }
        final Map<String, Identity> next = new TreeMap<>(users);
        int deleted = 0;
        for (final String name : names)
        {
            final Identity gone = next.remove(name);
            if (gone != null)
            {
                gone.remove();
                deleted++;
            }
        }
        users = Collections.unmodifiableMap(next);
        changed.run();
        return deleted;
    }

    /**
     * @param name a user.
     * @return its current rules, or null.
     */
    public User user(final String name)
    {
        final Identity identity = users.get(name);
        return identity == null ? null : identity.user();
    }

    /** @return ACL USERS: the names, sorted. */
    public List<String> names()
    {
        return new ArrayList<>(users.keySet());
    }

    /** @return ACL LIST: each user as a file line, sorted by name. */
    public List<String> describe()
    {
        final List<String> out = new ArrayList<>();
        users.values().forEach(i -> out.add(i.user().describe()));
        return out;
    }

    /**
     * @param category a category name, or null for the list of categories.
     * @return ACL CAT: the categories, or the commands (and subcommands) in one; null for an unknown category.
     */
    public List<String> category(final String category)
    {
        final List<String> out = new ArrayList<>();
        if (category == null)
        {
            for (final Category c : Category.values())
            {
                out.add(c.word());
            }
            return out;
        }
        final Category c = Category.find(category);
        if (c == null)
        {
            return null;
        }
        catalog.all().stream().filter(s -> s.in(c)).forEach(s -> out.add(s.name()));
        return out;
    }

    /**
     * ACL GENPASS.
     *
     * @param bits the password's strength.
     * @return that many random bits in hex, rounded up to a whole hex digit.
     * @throws AclException outside 1..4096, in Redis's words.
     */
    public String generatePassword(final long bits)
    {
        if (bits <= 0 || bits > MOST_GENPASS_BITS)
        {
            throw new AclException("ACL GENPASS argument must be the number of bits for the output password, a " +
                "positive number up to " + MOST_GENPASS_BITS);
        }
        final int chars = (int)((bits + 3) / 4);
        final StringBuilder out = new StringBuilder(chars);
        for (int i = 0; i < chars; i++)
        {
            out.append(Character.forDigit(random.nextInt(16), 16));
        }
        return out.toString();
    }
}
