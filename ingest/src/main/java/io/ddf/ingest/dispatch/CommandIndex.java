package io.ddf.ingest.dispatch;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.Collection;

/**
 * Finds a command by its name as the client sent it (ASCII, any case) without making a String: the profile of
 * {@code BF.ADD} showed two Strings per command (the name decoded, then lower-cased) only to look it up. Open
 * addressing over a power-of-two table of at least twice the commands; the hash folds ASCII letters to lower case.
 * Immutable once built, so every event loop may read it.
 */
final class CommandIndex
{
    private final Command[] commands;
    private final byte[][] names;
    private final int mask;

    /** @param all every command, names in lower case and unique. */
    CommandIndex(final Collection<Command> all)
    {
        final int size = Integer.highestOneBit(Math.max(4, all.size() * 2) - 1) << 1;
        commands = new Command[size];
        names = new byte[size][];
        mask = size - 1;
        for (final Command c : all)
        {
            final byte[] name = c.name().getBytes(StandardCharsets.ISO_8859_1);
            int i = hash(name, 0, name.length) & mask;
            while (commands[i] != null)
            {
                i = (i + 1) & mask;
            }
            commands[i] = c;
            names[i] = name;
        }
    }

    /**
     * @param name the name's bytes (not consumed).
     * @return its command, or null.
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
        for (int i = h & mask; commands[i] != null; i = (i + 1) & mask)
        {
            if (matches(names[i], input, from, length))
            {
                return commands[i];
            }
        }
        return null;
    }

    private Command find(final byte[] name, final int from, final int length)
    {
        final int h = hash(name, from, length);
        for (int i = h & mask; commands[i] != null; i = (i + 1) & mask)
        {
            final byte[] candidate = names[i];
            if (candidate.length == length && matches(candidate, name, from))
            {
                return commands[i];
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
}
