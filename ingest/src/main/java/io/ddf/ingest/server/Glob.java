package io.ddf.ingest.server;

/** Redis-style glob patterns: {@code *}, {@code ?} and a backslash escaping the next character; O(p·t) time. */
final class Glob
{
    private Glob()
    {
    }

    /**
     * @param pattern the pattern.
     * @param text    the text.
     * @return whether the whole text matches.
     */
    static boolean matches(final String pattern, final String text)
    {
        // match[j]: the pattern so far matches text[0, j)
        boolean[] match = new boolean[text.length() + 1];
        match[0] = true;
        for (int p = 0; p < pattern.length(); p++)
        {
            char c = pattern.charAt(p);
            boolean literal = false;
            if (c == '\\' && p + 1 < pattern.length())
            {
                c = pattern.charAt(++p);
                literal = true;
            }
            final boolean[] next = new boolean[text.length() + 1];
            if (c == '*' && !literal)
            {
                boolean any = false;
                for (int j = 0; j <= text.length(); j++)
                {
                    any |= match[j];
                    next[j] = any;
                }
            }
            else
            {
                for (int j = 0; j < text.length(); j++)
                {
                    next[j + 1] = match[j] && (c == '?' && !literal || text.charAt(j) == c);
                }
            }
            match = next;
        }
        return match[text.length()];
    }
}
