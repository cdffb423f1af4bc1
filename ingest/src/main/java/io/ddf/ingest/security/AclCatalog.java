package io.ddf.ingest.security;

import io.ddf.ingest.acl.Category;
import io.ddf.ingest.acl.CommandCatalog;
import io.ddf.ingest.acl.CommandSpec;
import io.ddf.ingest.acl.KeySpec;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;


/**
 * The ACL's view of the {@link CommandTable}, read from its declarations alone (nothing here lists a command): each
 * command with its ACL categories and keys, plus the subcommands each container declares
 * ({@link Command#subcommands()}: CLIENT, CONFIG, COMMAND, MEMORY, MODULE, ACL) with the categories Redis 7 gives
 * each, since rules such as {@code -@admin +client|id} and NOPERM errors name them ({@code client|list}); a container
 * itself has none, as in Redis.
 *
 * <p>The rights a key needs follow Redis's key specifications: a module command (BF.*, CF.*: RedisBloom registers
 * them without specifications, so Redis gives their keys full access) needs read and write if it writes, read if
 * it reads; a core command needs write if it writes, read if it reads, and neither when it only looks at a key's
 * existence, type or size (EXISTS, TYPE, MEMORY USAGE).
 */
final class AclCatalog
{
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
        for (final Command c : table.all())
        {
            final boolean container = !c.subcommands().isEmpty();
            specs.add(new CommandSpec(c.name(), container ? EnumSet.noneOf(Category.class) :
                categories(c.name(), c.categories()), c.noAuth(),
                container ? KeySpec.NONE : keys(c, c.firstKey(), c.lastKey(), c.step(), c.keysOnlyNamed())));
            c.subcommands().stream().sorted(java.util.Comparator.comparing(Command.Subcommand::name)).forEach(sub ->
                specs.add(new CommandSpec(sub.name(), categories(sub.name(), sub.categories()), false,
                    keys(c, sub.key(), sub.key(), 1, sub.keysOnlyNamed()))));
        }
        return CommandCatalog.of(specs);
    }

    private static Set<Category> categories(final String command, final List<String> names)
    {
        final Set<Category> out = EnumSet.noneOf(Category.class);
        for (final String name : names)
        {
            final Category category = Category.find(name.substring(1));
            if (category == null)
            {
                throw new IllegalStateException(command + " has an ACL category the ACL does not know: " + name);
            }
            out.add(category);
        }
        return out;
    }

    private static KeySpec keys(final Command c, final int first, final int last, final int step,
        final boolean look)
    {
        if (first == 0)
        {
            return KeySpec.NONE;
        }
        final boolean write = c.flags().contains("write");
        final boolean module = c.name().contains(".");
        final boolean read = !look && (module && write || !write);
        return new KeySpec(first, last, step, read, write);
    }
}
