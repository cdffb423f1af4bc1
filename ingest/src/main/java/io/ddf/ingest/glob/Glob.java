package io.ddf.ingest.glob;

import java.util.ArrayList;
import java.util.List;

/**
 * Redis's glob patterns (its {@code stringmatchlen}), as KEYS, SCAN MATCH, CONFIG GET and ACL key patterns use them:
 * {@code *} any run of characters, {@code ?} one character, {@code [abc]}, {@code [^abc]} and {@code [a-z]} a class
 * (a reversed range counts as if written the right way round; an unclosed class ends with the pattern), and a
 * backslash matching the next character literally, inside a class too (a trailing backslash matches itself).
 *
 * <p>Matched by dynamic programming over the compiled pattern, O(pattern · text) time and no recursion, so a hostile
 * pattern such as {@code *a*a*a*a*b} costs no more than its length times the text's (Redis guards against the
 * same blow-up with its own cut-off). Characters are compared as they are: callers that hold binary keys decode
 * them one byte per character (ISO-8859-1) so that {@code ?} is one byte, as in Redis.
 */
public final class Glob
{
    private final Token[] tokens;
    private final boolean ignoreCase;

    private Glob(final Token[] tokens, final boolean ignoreCase)
    {
        this.tokens = tokens;
        this.ignoreCase = ignoreCase;
    }

    /**
     * @param pattern a Redis glob pattern; every string is one (there are no syntax errors, as in Redis).
     * @return the compiled pattern, matching case-sensitively.
     */
    public static Glob compile(final String pattern)
    {
        return new Glob(tokenize(pattern), false);
    }

    /**
     * @param pattern a Redis glob pattern.
     * @return the compiled pattern, ignoring case (as CONFIG GET does).
     */
    public static Glob compileIgnoringCase(final String pattern)
    {
        return new Glob(tokenize(pattern), true);
    }

    /**
     * @param pattern the pattern.
     * @param text    the text.
     * @return whether the whole text matches (case-sensitive).
     */
    public static boolean matches(final String pattern, final String text)
    {
        return compile(pattern).matches(text);
    }

    /**
     * @param text the text.
     * @return whether the whole text matches.
     */
    public boolean matches(final String text)
    {
        final int n = text.length();
        // match[j]: the tokens so far match text[0, j)
        boolean[] match = new boolean[n + 1];
        boolean[] next = new boolean[n + 1];
        match[0] = true;
        for (final Token token : tokens)
        {
            java.util.Arrays.fill(next, false);
            if (token.star)
            {
                boolean any = false;
                for (int j = 0; j <= n; j++)
                {
                    any |= match[j];
                    next[j] = any;
                }
            }
            else
            {
                boolean some = false;
                for (int j = 0; j < n; j++)
                {
                    if (match[j] && token.accepts(text.charAt(j), ignoreCase))
                    {
                        next[j + 1] = true;
                        some = true;
                    }
                }
                if (!some)
                {
                    return false;
                }
            }
            final boolean[] swap = match;
            match = next;
            next = swap;
        }
        return match[n];
    }

    private static Token[] tokenize(final String pattern)
    {
        final List<Token> out = new ArrayList<>();
        int p = 0;
        final int len = pattern.length();
        while (p < len)
        {
            final char c = pattern.charAt(p);
            switch (c)
            {
                case '*' ->
                {
                    // consecutive stars are one star
                    if (out.isEmpty() || !out.get(out.size() - 1).star)
                    {
                        out.add(Token.STAR);
                    }
                    p++;
                }
                case '?' ->
                {
                    out.add(Token.ANY);
                    p++;
                }
                case '[' -> p = charClass(pattern, p + 1, out);
                case '\\' ->
                {
                    // an escape with nothing after it matches a backslash
                    final char literal = p + 1 < len ? pattern.charAt(p + 1) : '\\';
                    out.add(Token.literal(literal));
                    p += p + 1 < len ? 2 : 1;
                }
                default ->
                {
                    out.add(Token.literal(c));
                    p++;
                }
            }
        }
        return out.toArray(new Token[0]);
    }

    /** Reads a class from just after its '[' to just after its ']' (or the pattern's end). */
    private static int charClass(final String pattern, final int start, final List<Token> out)
    {
        int p = start;
        final int len = pattern.length();
        final boolean negate = p < len && pattern.charAt(p) == '^';
        if (negate)
        {
            p++;
        }
        final StringBuilder singles = new StringBuilder();
        final StringBuilder ranges = new StringBuilder();
        while (p < len && pattern.charAt(p) != ']')
        {
            char c = pattern.charAt(p);
            if (c == '\\' && p + 1 < len)
            {
                singles.append(pattern.charAt(p + 1));
                p += 2;
            }
            else if (p + 2 < len && pattern.charAt(p + 1) == '-')
            {
                char end = pattern.charAt(p + 2);
                if (c > end)
                {
                    final char swap = c;
                    c = end;
                    end = swap;
                }
                ranges.append(c).append(end);
                p += 3;
            }
            else
            {
                singles.append(c);
                p++;
            }
        }
        out.add(new Token(false, singles.toString().toCharArray(), ranges.toString().toCharArray(), negate, false));
        return p < len ? p + 1 : p;
    }

    /** One step of a pattern: a star, or a set of characters that one text character must be in (or not). */
    private static final class Token
    {
        static final Token STAR = new Token(true, new char[0], new char[0], false, false);
        static final Token ANY = new Token(false, new char[0], new char[0], false, true);

        final boolean star;
        final char[] singles;
        /** Pairs (low, high), inclusive. */
        final char[] ranges;
        final boolean negate;
        final boolean any;

        Token(final boolean star, final char[] singles, final char[] ranges, final boolean negate, final boolean any)
        {
            this.star = star;
            this.singles = singles;
            this.ranges = ranges;
            this.negate = negate;
            this.any = any;
        }

        static Token literal(final char c)
        {
            return new Token(false, new char[] {c}, new char[0], false, false);
        }

        boolean accepts(final char c, final boolean ignoreCase)
        {
            if (any)
            {
                return true;
            }
            boolean in = contains(c) || ignoreCase && (contains(Character.toLowerCase(c)) ||
                contains(Character.toUpperCase(c)));
            return in != negate;
        }

        private boolean contains(final char c)
        {
            for (final char s : singles)
            {
                if (s == c)
                {
                    return true;
                }
            }
            for (int i = 0; i < ranges.length; i += 2)
            {
                if (c >= ranges[i] && c <= ranges[i + 1])
                {
                    return true;
                }
            }
            return false;
        }
    }
}
