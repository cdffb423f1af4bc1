package io.ddf.ingest.dispatch;

import io.netty.buffer.ByteBuf;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every command the daemon knows, one {@link Command} each: the {@link Conductor} finds a command here by the bytes
 * of its name, and {@code COMMAND} (COUNT, INFO, DOCS, LIST) answers from the same entries, so the list a client
 * sees is the list served, with the arity, flags, ACL categories and key positions that are checked. Built once per
 * daemon, then read by every event loop (never changed after).
 *
 * <p>To add a command: write its handler where its family lives and declare it there, once: its {@link Command}
 * (arity, flags, ACL categories, key positions, subcommands) is what the conductor checks, what the ACL's catalog
 * reads ({@code security.AclCatalog}) and what COMMAND serves; nothing else lists commands. The families
 * ({@code io.ddf.ingest.commands.*}, registered by {@code server.CommandFamilies}): {@code redisbloom} (every BF.*
 * and CF.* command), {@code server} (connection and administration commands, the generic key commands EXISTS,
 * TYPE, DEL, UNLINK, MODULE, MULTI/EXEC/DISCARD and COMMAND), {@code keyspace} (KEYS, SCAN, FLUSHALL, FLUSHDB,
 * MEMORY) and {@code acl} (ACL).
 */
public final class CommandTable
{
    private final Map<String, Command> commands = new LinkedHashMap<>();
    /** The same commands, found by the bytes of their name; rebuilt by {@link #add}. */
    private CommandIndex index = new CommandIndex(List.of());

    /**
     * @param command a command.
     * @throws IllegalStateException when its name is taken.
     */
    public void add(final Command command)
    {
        if (commands.putIfAbsent(command.name(), command) != null)
        {
            throw new IllegalStateException("command " + command.name() + " registered twice");
        }
        index = new CommandIndex(commands.values());
    }

    /**
     * @param name lower case.
     * @return its entry, or null.
     */
    public Command lookup(final String name)
    {
        return commands.get(name);
    }

    /**
     * @param name the name's bytes as the client sent them, any case (not consumed).
     * @return its entry, or null.
     */
    Command find(final ByteBuf name)
    {
        return index.find(name);
    }

    /**
     * The decoder's seam for arguments longer than {@code --max-bulk-bytes}: what the named command allows.
     *
     * @return the limit of the command named at {@code offset} of {@code input}, or 0.
     */
    public long largeArguments(final ByteBuf input, final int offset, final int length)
    {
        final Command command = index.find(input, offset, length);
        return command == null ? 0 : command.largeArguments();
    }

    /** Starts every command's counters again (CONFIG RESETSTAT). */
    public void resetStats()
    {
        commands.values().forEach(c -> c.stats().reset());
    }

    /**
     * @param name lower case.
     * @return whether a command of that name is served.
     */
    boolean has(final String name)
    {
        return commands.containsKey(name);
    }

    /** @return how many commands are served. */
    public int size()
    {
        return commands.size();
    }

    /** @return every entry, in registration order. */
    public Collection<Command> all()
    {
        return Collections.unmodifiableCollection(commands.values());
    }
}
