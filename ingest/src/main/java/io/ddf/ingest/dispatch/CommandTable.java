package io.ddf.ingest.dispatch;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every command the daemon knows, one {@link Command} each: the {@link Conductor} finds a command here by the bytes of
 * its name as the client sent it (ASCII, any case) without making a String (the profile of {@code BF.ADD} showed two
 * Strings per command, the name decoded then lower-cased, only to look it up): open addressing over a power-of-two
 * table of at least twice the commands, whose hash folds ASCII letters to lower case. {@code COMMAND} (COUNT, INFO,
 * DOCS, LIST) answers from the same entries, so the list a client sees is the list served, with the arity, flags, ACL
 * categories and key positions that are checked. Built once per daemon, then read by every event loop (never changed
 * after).
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
    /** The same commands by the bytes of their name: slots, their names in lower case; rebuilt by {@link #add}. */
    private Command[] slots = new Command[4];
    private byte[][] names = new byte[4][];
    private int mask = 3;

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
        index(commands.values());
    }

    /** Builds the byte index of every command (names in lower case and unique). */
    private void index(final Collection<Command> all)
    {
        final int size = Integer.highestOneBit(Math.max(4, all.size() * 2) - 1) << 1;
        final Command[] newSlots = new Command[size];
        final byte[][] newNames = new byte[size][];
        final int newMask = size - 1;
        for (final Command c : all)
        {
            final byte[] name = c.name().getBytes(StandardCharsets.ISO_8859_1);
            int i = hash(name, 0, name.length) & newMask;
            while (newSlots[i] != null)
            {
                i = (i + 1) & newMask;
            }
            newSlots[i] = c;
            newNames[i] = name;
        }
        slots = newSlots;
        names = newNames;
        mask = newMask;
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
        return find(name, name.readerIndex(), name.readableBytes());
    }

    /**
     * @param input  holds the name.
     * @param from   index of its first byte.
     * @param length its length.
     * @return its command, or null.
     */
    Command find(final ByteBuf input, final int from, final int length)
    {
        if (input.hasArray())
        {
            // the decoder's reused argument buffers are heap arrays: no bounds or liveness check per byte
            return find(input.array(), input.arrayOffset() + from, length);
        }
        int h = 0;
        for (int k = 0; k < length; k++)
        {
            h = 31 * h + lower(input.getByte(from + k));
        }
        for (int i = h & mask; slots[i] != null; i = (i + 1) & mask)
        {
            if (matches(names[i], input, from, length))
            {
                return slots[i];
            }
        }
        return null;
    }

    private Command find(final byte[] name, final int from, final int length)
    {
        final int h = hash(name, from, length);
        for (int i = h & mask; slots[i] != null; i = (i + 1) & mask)
        {
            final byte[] candidate = names[i];
            if (candidate.length == length && matches(candidate, name, from))
            {
                return slots[i];
            }
        }
        return null;
    }

    private static boolean matches(final byte[] lowerName, final byte[] name, final int from)
    {
        for (int k = 0; k < lowerName.length; k++)
        {
            if (lowerName[k] != lower(name[from + k]))
            {
                return false;
            }
        }
        return true;
    }

    private static boolean matches(final byte[] lowerName, final ByteBuf name, final int from, final int length)
    {
        if (lowerName.length != length)
        {
            return false;
        }
        for (int k = 0; k < length; k++)
        {
            if (lowerName[k] != lower(name.getByte(from + k)))
            {
                return false;
            }
        }
        return true;
    }

    private static int hash(final byte[] name, final int from, final int length)
    {
        int h = 0;
        for (int k = from; k < from + length; k++)
        {
            h = 31 * h + lower(name[k]);
        }
        return h;
    }

    /** ASCII letters to lower case, as {@code toLowerCase(Locale.ROOT)} does for the ISO-8859-1 names served. */
    private static byte lower(final byte b)
    {
        return b >= 'A' && b <= 'Z' ? (byte)(b + ('a' - 'A')) : b;
    }

    /**
     * The decoder's seam for arguments longer than {@code --max-bulk-bytes}: what the named command allows.
     *
     * @return the limit of the command named at {@code offset} of {@code input}, or 0.
     */
    public long largeArguments(final ByteBuf input, final int offset, final int length)
    {
        final Command command = find(input, offset, length);
        return command == null ? 0 : command.largeArguments();
    }

    /** Starts every command's counters again (CONFIG RESETSTAT). */
    public void resetStats()
    {
        commands.values().forEach(c -> c.resetStats());
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
