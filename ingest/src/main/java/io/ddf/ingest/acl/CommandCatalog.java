package io.ddf.ingest.acl;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The commands ACL rules can name: every command the daemon serves, each with a small id that indexes a user's
 * permission bits ({@link CommandRules}), as Redis numbers its commands for the same purpose. Immutable once made.
 */
public final class CommandCatalog
{
    private final List<CommandSpec> specs;
    private final Map<String, Integer> ids = new HashMap<>();
    /** For each id, the ids of its subcommands (empty for a command without). */
    private final int[][] subcommands;

    private CommandCatalog(final List<CommandSpec> specs)
    {
        this.specs = List.copyOf(specs);
        for (int i = 0; i < this.specs.size(); i++)
        {
            if (ids.putIfAbsent(this.specs.get(i).name(), i) != null)
            {
                throw new IllegalArgumentException("command " + this.specs.get(i).name() + " listed twice");
            }
        }
        final Map<Integer, List<Integer>> subs = new HashMap<>();
        for (int i = 0; i < this.specs.size(); i++)
        {
            final CommandSpec spec = this.specs.get(i);
            if (spec.isSubcommand())
            {
                final Integer parent = ids.get(spec.container());
                if (parent == null)
                {
                    throw new IllegalArgumentException("subcommand " + spec.name() + " without its container");
                }
                subs.computeIfAbsent(parent, k -> new ArrayList<>()).add(i);
            }
        }
        subcommands = new int[this.specs.size()][];
        for (int i = 0; i < subcommands.length; i++)
        {
            subcommands[i] = subs.getOrDefault(i, List.of()).stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /**
     * @param specs every command and subcommand (a subcommand's container listed too).
     * @return the catalog.
     * @throws IllegalArgumentException on a name listed twice or a subcommand whose container is missing.
     */
    public static CommandCatalog of(final Collection<CommandSpec> specs)
    {
        return new CommandCatalog(new ArrayList<>(specs));
    }

    /** @return the number of commands and subcommands. */
    public int size()
    {
        return specs.size();
    }

    /**
     * @param id an id.
     * @return its command.
     */
    public CommandSpec spec(final int id)
    {
        return specs.get(id);
    }

    /** @return every command, in id order. */
    public List<CommandSpec> all()
    {
        return Collections.unmodifiableList(specs);
    }

    /**
     * @param name a full name in any case ({@code BF.ADD}, {@code config|get}).
     * @return its id, or -1.
     */
    public int id(final String name)
    {
        final Integer id = ids.get(name.toLowerCase(Locale.ROOT));
        return id == null ? -1 : id;
    }

    /**
     * @param id a command's id.
     * @return the ids of its subcommands, empty when it has none (do not change the array).
     */
    int[] subcommands(final int id)
    {
        return subcommands[id];
    }

    /**
     * @param id a command's id.
     * @return whether it has subcommands.
     */
    public boolean isContainer(final int id)
    {
        return subcommands[id].length > 0;
    }

    /**
     * The command a request runs: the subcommand when its container has one of the request's second word, else
     * the command itself.
     *
     * @param command the first word, any case.
     * @param sub     the second word, or null.
     * @return the command's spec, or null for a command the catalog does not have.
     */
    public CommandSpec resolve(final String command, final String sub)
    {
        final int id = id(command);
        if (id < 0)
        {
            return null;
        }
        if (sub != null && isContainer(id))
        {
            final int subId = id(specs.get(id).name() + "|" + sub);
            if (subId >= 0)
            {
                return specs.get(subId);
            }
        }
        return specs.get(id);
    }
}
