package io.ddf.ingest.acl;

/**
 * A rule, user or file the ACL refuses; the message is Redis's words for the reason (e.g. {@code Syntax error},
 * {@code Unknown command or category name in ACL}), which the daemon prefixes as Redis does in each context.
 */
public final class AclException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** @param reason Redis's words for what is wrong. */
    public AclException(final String reason)
    {
        super(reason);
    }
}
