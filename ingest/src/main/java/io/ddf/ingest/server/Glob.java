package io.ddf.ingest.server;

/** Redis-style glob patterns for KEYS, SCAN MATCH and CONFIG GET: {@link io.ddf.ingest.glob.Glob}'s rules. */
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
        return io.ddf.ingest.glob.Glob.matches(pattern, text);
    }
}
