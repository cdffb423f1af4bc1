package io.ddf.ingest.server;

import io.ddf.ingest.acl.Category;
import io.ddf.ingest.acl.CommandCatalog;
import io.ddf.ingest.acl.CommandSpec;
import io.ddf.ingest.acl.KeySpec;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static io.ddf.ingest.acl.Category.ADMIN;
import static io.ddf.ingest.acl.Category.CONNECTION;
import static io.ddf.ingest.acl.Category.DANGEROUS;
import static io.ddf.ingest.acl.Category.FAST;
import static io.ddf.ingest.acl.Category.READ;
import static io.ddf.ingest.acl.Category.SLOW;

/**
 * The ACL's view of the {@link CommandTable}: each command with its ACL categories and keys, plus the subcommands
 * of the containers (CLIENT, CONFIG, COMMAND, MEMORY, MODULE, ACL) with the categories Redis 7 gives each, since rules such
 * as {@code -@admin +client|id} and NOPERM errors name them ({@code client|list}); a container itself has none, as
 * in Redis.
 *
 * <p>The rights a key needs follow Redis's key specifications: a module command (BF.*, CF.*: RedisBloom registers
 * them without specifications, so Redis gives their keys full access) needs read and write if it writes, read if
 * it reads; a core command needs write if it writes, read if it reads, and neither when it only looks at a key's
 * existence, type or size (EXISTS, TYPE, MEMORY USAGE).
 */
final class AclCatalog
{
    /** Core commands that name keys without reading what they hold. */
    private static final Set<String> LOOK_ONLY = Set.of("exists", "type", "memory|usage");

    /** Redis 7's subcommands of the containers ddf serves, with their categories. */
    private static final Map<String, Set<Category>> SUBCOMMANDS = Map.ofEntries(
        Map.entry("client|id", EnumSet.of(SLOW, CONNECTION)),
        Map.entry("client|setname", EnumSet.of(SLOW, CONNECTION)),
        Map.entry("client|getname", EnumSet.of(SLOW, CONNECTION)),
        Map.entry("client|setinfo", EnumSet.of(SLOW, CONNECTION)),
        Map.entry("client|info", EnumSet.of(SLOW, CONNECTION)),
        Map.entry("client|list", EnumSet.of(ADMIN, SLOW, DANGEROUS, CONNECTION)),
        Map.entry("client|help", EnumSet.of(SLOW, CONNECTION)),
        Map.entry("client|no-evict", EnumSet.of(ADMIN, SLOW, DANGEROUS, CONNECTION)),
        Map.entry("client|no-touch", EnumSet.of(FAST, CONNECTION)),
        Map.entry("client|reply", EnumSet.of(SLOW, CONNECTION)),
        Map.entry("config|get", EnumSet.of(ADMIN, SLOW, DANGEROUS)),
        Map.entry("config|set", EnumSet.of(ADMIN, SLOW, DANGEROUS)),
        Map.entry("config|resetstat", EnumSet.of(ADMIN, SLOW, DANGEROUS)),
        Map.entry("config|help", EnumSet.of(SLOW)),
        Map.entry("command|count", EnumSet.of(SLOW, CONNECTION)),
        Map.entry("command|info", EnumSet.of(SLOW, CONNECTION)),
        Map.entry("command|docs", EnumSet.of(SLOW, CONNECTION)),
        Map.entry("command|list", EnumSet.of(SLOW, CONNECTION)),
        Map.entry("command|help", EnumSet.of(SLOW, CONNECTION)),
        Map.entry("memory|usage", EnumSet.of(READ, SLOW)),
        Map.entry("memory|help", EnumSet.of(SLOW)),
        Map.entry("module|list", EnumSet.of(ADMIN, SLOW, DANGEROUS)),
        Map.entry("module|help", EnumSet.of(SLOW)),
        Map.entry("acl|whoami", EnumSet.of(FAST)),
        Map.entry("acl|cat", EnumSet.of(SLOW)),
        Map.entry("acl|genpass", EnumSet.of(SLOW)),
        Map.entry("acl|help", EnumSet.of(SLOW)),
        Map.entry("acl|users", EnumSet.of(ADMIN, SLOW, DANGEROUS)),
        Map.entry("acl|list", EnumSet.of(ADMIN, SLOW, DANGEROUS)),
        Map.entry("acl|getuser", EnumSet.of(ADMIN, SLOW, DANGEROUS)),
        Map.entry("acl|setuser", EnumSet.of(ADMIN, SLOW, DANGEROUS)),
        Map.entry("acl|deluser", EnumSet.of(ADMIN, SLOW, DANGEROUS)),
        Map.entry("acl|load", EnumSet.of(ADMIN, SLOW, DANGEROUS)),
        Map.entry("acl|save", EnumSet.of(ADMIN, SLOW, DANGEROUS)),
        Map.entry("acl|log", EnumSet.of(ADMIN, SLOW, DANGEROUS)),
        Map.entry("acl|dryrun", EnumSet.of(ADMIN, SLOW, DANGEROUS)));

    private AclCatalog()
    {
    }

    /**
     * @param table every command served.
     * @return the catalog ACL rules are checked against.
     */
    static CommandCatalog of(final CommandTable table)
    {
        final List<CommandSpec> specs = new ArrayList<>();
        final Set<String> containers = new java.util.HashSet<>();
        SUBCOMMANDS.keySet().forEach(s -> containers.add(s.substring(0, s.indexOf('|'))));
        for (final Command c : table.all())
        {
            final boolean container = containers.contains(c.name());
            specs.add(new CommandSpec(c.name(), container ? EnumSet.noneOf(Category.class) : categories(c),
                c.noAuth(), container ? KeySpec.NONE : keys(c, c.name(), c.firstKey(), c.lastKey(), c.step())));
            if (container)
            {
                SUBCOMMANDS.entrySet().stream().filter(e -> e.getKey().startsWith(c.name() + "|")).sorted(
                    Map.Entry.comparingByKey()).forEach(e -> specs.add(new CommandSpec(e.getKey(), e.getValue(),
                        false, e.getKey().equals("memory|usage") ? keys(c, e.getKey(), 2, 2, 1) : KeySpec.NONE)));
            }
        }
        return CommandCatalog.of(specs);
    }

    private static Set<Category> categories(final Command c)
    {
        final Set<Category> out = EnumSet.noneOf(Category.class);
        for (final String name : c.categories())
        {
            final Category category = Category.find(name.substring(1));
            if (category == null)
            {
                throw new IllegalStateException(c.name() + " has an ACL category the ACL does not know: " + name);
            }
            out.add(category);
        }
        return out;
    }

    private static KeySpec keys(final Command c, final String name, final int first, final int last,
        final int step)
    {
        if (first == 0)
        {
            return KeySpec.NONE;
        }
        final boolean write = c.flags().contains("write");
        final boolean module = c.name().contains(".");
        final boolean look = LOOK_ONLY.contains(name.toLowerCase(Locale.ROOT));
        final boolean read = !look && (module && write || !write);
        return new KeySpec(first, last, step, read, write);
    }
}
