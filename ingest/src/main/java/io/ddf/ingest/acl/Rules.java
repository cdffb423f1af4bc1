package io.ddf.ingest.acl;

/** Small checks shared by the rule parsers. */
final class Rules
{
    private Rules()
    {
    }

    /**
     * @param s a user name or pattern.
     * @return whether it has white space or a NUL, which Redis refuses in names and patterns (so that a rule
     *         never needs quoting in ACL LIST or a file).
     */
    static boolean hasSpaces(final String s)
    {
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            if (c == 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B)
            {
                return true;
            }
        }
        return false;
    }
}
