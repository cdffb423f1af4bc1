package io.ddf.ingest.acl;

/** Redis's reasons for refusing an ACL rule (acl.c's ACLSetUserStringError), plus ddf's one for selectors. */
final class RuleErrors
{
    static final String SYNTAX = "Syntax error";
    static final String UNKNOWN = "Unknown command or category name in ACL";
    static final String KEY_AFTER_ALL = "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid " +
        "and does not have any effect. Try 'resetkeys' to start with an empty list of patterns";
    static final String CHANNEL_AFTER_ALL = "Adding a pattern after the * pattern (or the 'allchannels' flag) is " +
        "not valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels";
    static final String NO_SUCH_PASSWORD = "The password you are trying to remove from the user does not exist";
    static final String BAD_HASH = "The password hash must be exactly 64 characters and contain only lowercase " +
        "hexadecimal characters";
    static final String DUPLICATE_USER = "Duplicate user found. A user can only be defined once in config files";
    static final String FIRST_ARG_OF_SUBCOMMAND = "Allowing first-arg of a subcommand is not supported";
    /** ddf's: Redis 7's selectors are not implemented (say so rather than accept rules that would not apply). */
    static final String SELECTORS = "Selectors '(...)' are not supported by ddf; give the user's rules directly";

    private RuleErrors()
    {
    }

    static AclException syntax()
    {
        return new AclException(SYNTAX);
    }

    static AclException unknown()
    {
        return new AclException(UNKNOWN);
    }
}
