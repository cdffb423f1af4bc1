package io.ddf.ingest.glob;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Redis's glob rules (stringmatchlen), and a randomised comparison with a regular-expression translation. */
class GlobTest
{
    @Test
    void starsQuestionMarksAndEscapes()
    {
        assertTrue(Glob.matches("*", ""));
        assertTrue(Glob.matches("*", "save"));
        assertTrue(Glob.matches("sa?e", "save"));
        assertFalse(Glob.matches("sa?e", "sae"));
        assertTrue(Glob.matches("*end*", "appendonly"));
        assertTrue(Glob.matches("clicks:**", "clicks:"));
        assertFalse(Glob.matches("save", "saves"));
        assertTrue(Glob.matches("a\\*", "a*"));
        assertFalse(Glob.matches("a\\*", "ab"));
        assertTrue(Glob.matches("a\\", "a\\"), "a trailing backslash matches itself");
        assertFalse(Glob.matches("*a*a*a*a*a*a*a*a*a*a*a*a*b", "a".repeat(3000)), "no blow-up");
    }

    @Test
    void classes()
    {
        assertTrue(Glob.matches("h[ae]llo", "hello"));
        assertTrue(Glob.matches("h[ae]llo", "hallo"));
        assertFalse(Glob.matches("h[ae]llo", "hillo"));
        assertTrue(Glob.matches("h[^e]llo", "hallo"));
        assertFalse(Glob.matches("h[^e]llo", "hello"));
        assertTrue(Glob.matches("h[a-b]llo", "hbllo"));
        assertTrue(Glob.matches("h[b-a]llo", "hallo"), "a reversed range is the same range");
        assertFalse(Glob.matches("h[a-b]llo", "hcllo"));
        assertTrue(Glob.matches("[\\]]", "]"), "an escaped bracket in a class");
        assertTrue(Glob.matches("[\\-]", "-"));
        assertFalse(Glob.matches("[]", "a"), "an empty class matches nothing");
        assertTrue(Glob.matches("[^]", "a"));
        assertTrue(Glob.matches("a[bc", "ab"), "an unclosed class ends with the pattern");
        assertFalse(Glob.matches("[", "["));
        assertTrue(Glob.compileIgnoringCase("MAX-*").matches("max-clients"));
        assertFalse(Glob.compile("MAX-*").matches("max-clients"));
    }

    /** The patterns without classes mean exactly a regular expression; random ones must agree on random text. */
    @Test
    void agreesWithRegularExpressionsOnRandomPatterns()
    {
        final SplittableRandom random = TestSeed.splittable();
        final String alphabet = "ab*?\\[]^-c";
        for (int round = 0; round < 20_000; round++)
        {
            final StringBuilder glob = new StringBuilder();
            final int len = random.nextInt(8);
            for (int i = 0; i < len; i++)
            {
                glob.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            final StringBuilder text = new StringBuilder();
            final int textLen = random.nextInt(8);
            for (int i = 0; i < textLen; i++)
            {
                text.append("abc*?[]\\-^".charAt(random.nextInt(10)));
            }
            final String g = glob.toString();
            assertEquals(Pattern.matches(regex(g), text), Glob.matches(g, text.toString()),
                () -> "'" + g + "' on '" + text + "' (" + TestSeed.replayHint() + ")");
        }
    }

    /** Redis's rules written as a regular expression, independently of the matcher under test. */
    private static String regex(final String glob)
    {
        final StringBuilder out = new StringBuilder();
        int p = 0;
        while (p < glob.length())
        {
            final char c = glob.charAt(p);
            if (c == '*')
            {
                out.append("[\\s\\S]*");
                p++;
            }
            else if (c == '?')
            {
                out.append("[\\s\\S]");
                p++;
            }
            else if (c == '\\')
            {
                out.append(Pattern.quote(String.valueOf(p + 1 < glob.length() ? glob.charAt(p + 1) : '\\')));
                p += p + 1 < glob.length() ? 2 : 1;
            }
            else if (c == '[')
            {
                p++;
                final boolean negate = p < glob.length() && glob.charAt(p) == '^';
                if (negate)
                {
                    p++;
                }
                final StringBuilder set = new StringBuilder();
                while (p < glob.length() && glob.charAt(p) != ']')
                {
                    char a = glob.charAt(p);
                    if (a == '\\' && p + 1 < glob.length())
                    {
                        set.append(esc(glob.charAt(p + 1)));
                        p += 2;
                    }
                    else if (p + 2 < glob.length() && glob.charAt(p + 1) == '-')
                    {
                        char b = glob.charAt(p + 2);
                        set.append(esc((char)Math.min(a, b))).append('-').append(esc((char)Math.max(a, b)));
                        p += 3;
                    }
                    else
                    {
                        set.append(esc(a));
                        p++;
                    }
                }
                if (p < glob.length())
                {
                    p++;
                }
                out.append(set.length() == 0 ? negate ? "[\\s\\S]" : "(?!)" :
                    "[" + (negate ? "^" : "") + set + "]");
            }
            else
            {
                out.append(Pattern.quote(String.valueOf(c)));
                p++;
            }
        }
        return out.toString();
    }

    private static String esc(final char c)
    {
        return String.format("\\x{%x}", (int)c);
    }
}
