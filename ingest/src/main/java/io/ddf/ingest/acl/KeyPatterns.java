package io.ddf.ingest.acl;

import io.ddf.ingest.glob.Glob;

import java.util.ArrayList;
import java.util.List;

/**
 * Which keys a user may name: {@code allkeys} ({@code ~*}), or glob patterns each giving read and write
 * ({@code ~p}), read only ({@code %R~p}) or write only ({@code %W~p}); none after {@code resetkeys} (a new user's
 * state). A key passes when one pattern that gives every right the command needs matches it.
 */
final class KeyPatterns
{
    private static final int READ = 1;
    private static final int WRITE = 2;

    private boolean allKeys;
    private final List<Pattern> patterns = new ArrayList<>();

    KeyPatterns copy()
    {
        final KeyPatterns copy = new KeyPatterns();
        copy.allKeys = allKeys;
        copy.patterns.addAll(patterns);
        return copy;
    }

    /**
     * @param op a key rule.
     * @return false when it is not one.
     * @throws AclException on a malformed one, or a pattern after {@code allkeys}.
     */
    boolean apply(final String op)
    {
        if (op.equalsIgnoreCase("allkeys") || op.equals("~*"))
        {
            allKeys = true;
            patterns.clear();
            return true;
        }
        if (op.equalsIgnoreCase("resetkeys"))
        {
            allKeys = false;
            patterns.clear();
            return true;
        }
        final char first = op.charAt(0);
        if (first != '~' && first != '%')
        {
            return false;
        }
        if (allKeys)
        {
            throw new AclException(RuleErrors.KEY_AFTER_ALL);
        }
        int offset = 1;
        int flags = READ | WRITE;
        if (first == '%')
        {
            flags = 0;
            while (offset < op.length() && op.charAt(offset) != '~')
            {
                final char c = Character.toUpperCase(op.charAt(offset));
                final int flag = c == 'R' ? READ : c == 'W' ? WRITE : 0;
                if (flag == 0 || (flags & flag) != 0)
                {
                    throw RuleErrors.syntax();
                }
                flags |= flag;
                offset++;
            }
            if (flags == 0 || offset == op.length())
            {
                throw RuleErrors.syntax();
            }
            offset++;
        }
        final String pattern = op.substring(offset);
        if (Rules.hasSpaces(pattern))
        {
            throw RuleErrors.syntax();
        }
        for (int i = 0; i < patterns.size(); i++)
        {
            if (patterns.get(i).text.equals(pattern))
            {
                patterns.set(i, new Pattern(pattern, patterns.get(i).flags | flags));
                return true;
            }
        }
        patterns.add(new Pattern(pattern, flags));
        return true;
    }

    /**
     * @param key   the key.
     * @param read  the command needs read.
     * @param write the command needs write.
     * @return whether the user may name it.
     */
    boolean allows(final String key, final boolean read, final boolean write)
    {
        if (allKeys)
        {
            return true;
        }
        final int needed = (read ? READ : 0) | (write ? WRITE : 0);
        for (final Pattern p : patterns)
        {
            if ((p.flags & needed) == needed && p.glob.matches(key))
            {
                return true;
            }
        }
        return false;
    }

    boolean allKeys()
    {
        return allKeys;
    }

    /** @return as ACL LIST shows them: {@code ~*}, or each pattern; empty after resetkeys. */
    String describe()
    {
        if (allKeys)
        {
            return "~*";
        }
        final StringBuilder out = new StringBuilder();
        for (final Pattern p : patterns)
        {
            if (out.length() > 0)
            {
                out.append(' ');
            }
            out.append(p.flags == (READ | WRITE) ? "~" : p.flags == READ ? "%R~" : "%W~").append(p.text);
        }
        return out.toString();
    }

    private static final class Pattern
    {
        final String text;
        final int flags;
        final Glob glob;

        Pattern(final String text, final int flags)
        {
            this.text = text;
            this.flags = flags;
            this.glob = Glob.compile(text);
        }
    }
}
