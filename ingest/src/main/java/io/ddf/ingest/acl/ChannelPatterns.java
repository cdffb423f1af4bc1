package io.ddf.ingest.acl;

import java.util.ArrayList;
import java.util.List;

/**
 * A user's Pub/Sub channel rules ({@code &pattern}, {@code allchannels}, {@code resetchannels}). ddf serves no
 * Pub/Sub, so they grant nothing; they are kept so that an ACL file written for Redis loads unchanged and ACL LIST
 * gives back what it was told.
 */
final class ChannelPatterns
{
    private boolean allChannels;
    private final List<String> patterns = new ArrayList<>();

    ChannelPatterns copy()
    {
        final ChannelPatterns copy = new ChannelPatterns();
        copy.allChannels = allChannels;
        copy.patterns.addAll(patterns);
        return copy;
    }

    /**
     * @param op a channel rule.
     * @return false when it is not one.
     * @throws AclException on a pattern with spaces, or one after {@code allchannels}.
     */
    boolean apply(final String op)
    {
        if (op.equalsIgnoreCase("allchannels") || op.equals("&*"))
        {
            allChannels = true;
            patterns.clear();
            return true;
        }
        if (op.equalsIgnoreCase("resetchannels"))
        {
            allChannels = false;
            patterns.clear();
            return true;
        }
        if (op.charAt(0) != '&')
        {
            return false;
        }
        if (allChannels)
        {
            throw new AclException(RuleErrors.CHANNEL_AFTER_ALL);
        }
        final String pattern = op.substring(1);
        if (Rules.hasSpaces(pattern))
        {
            throw RuleErrors.syntax();
        }
        if (!patterns.contains(pattern))
        {
            patterns.add(pattern);
        }
        return true;
    }

    /** @return as ACL LIST shows them: {@code &*}, or {@code resetchannels} then each pattern. */
    String describe()
    {
        if (allChannels)
        {
            return "&*";
        }
        final StringBuilder out = new StringBuilder("resetchannels");
        patterns.forEach(p -> out.append(" &").append(p));
        return out.toString();
    }
}
