package io.ddf.ingest.store;

import java.nio.charset.StandardCharsets;

/**
 * Maps a key (any bytes, held as a Latin-1 string: one char per byte) to a file name and back, reversibly:
 * bytes {@code A-Z a-z 0-9 - _} stay as they are, every other byte becomes {@code %XX} (upper-case hex), and the
 * name ends in {@code .ddf}. A name is a key's file only if it decodes and encodes back to itself.
 */
public final class KeyNames
{
    /** Suffix of a filter file. */
    static final String SUFFIX = ".ddf";
    /** Longest file name most file systems accept. */
    static final int MAX_NAME = 255;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private KeyNames()
    {
    }

    /**
     * @param key a key, one char per byte.
     * @return its file name, or null for the empty key or when the name would be longer than {@link #MAX_NAME}.
     */
    public static String fileName(final String key)
    {
        if (key.isEmpty())
        {
            return null;
        }
        final StringBuilder name = new StringBuilder(key.length() + SUFFIX.length());
        for (int i = 0; i < key.length(); i++)
        {
            final char c = key.charAt(i);
            if (plain(c))
            {
                name.append(c);
            }
            else
            {
                name.append('%').append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
            }
        }
        name.append(SUFFIX);
        return name.length() <= MAX_NAME ? name.toString() : null;
    }

    /**
     * @param name a file name.
     * @return the key whose file it is, or null when it is not a key's file name.
     */
    static String key(final String name)
    {
        if (!name.endsWith(SUFFIX) || name.length() == SUFFIX.length())
        {
            return null;
        }
        final StringBuilder key = new StringBuilder();
        final int end = name.length() - SUFFIX.length();
        for (int i = 0; i < end; i++)
        {
            final char c = name.charAt(i);
            if (c == '%')
            {
                if (i + 2 >= end)
                {
                    return null;
                }
                final int hi = Character.digit(name.charAt(i + 1), 16);
                final int lo = Character.digit(name.charAt(i + 2), 16);
                if (hi < 0 || lo < 0)
                {
                    return null;
                }
                key.append((char)(hi << 4 | lo));
                i += 2;
            }
            else if (plain(c))
            {
                key.append(c);
            }
            else
            {
                return null;
            }
        }
        final String decoded = key.toString();
        return name.equals(fileName(decoded)) ? decoded : null;
    }

    /**
     * @param key a key, one char per byte.
     * @return the key as UTF-8 text where it is valid UTF-8, for logs.
     */
    public static String display(final String key)
    {
        return new String(key.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    private static boolean plain(final char c)
    {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_';
    }
}
