package io.ddf.ingest.acl;

import java.util.List;

/**
 * An ACL file that cannot be loaded, with every problem found (Redis reports them all and loads nothing): each
 * error names the file and line, e.g. {@code users.acl:3: '+bf.nosuch': Unknown command or category name in ACL}.
 */
public final class AclFileException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** The errors, one per problem. */
    private final transient List<String> errors;

    /** @param errors one line per problem. */
    public AclFileException(final List<String> errors)
    {
        super(String.join("; ", errors));
        this.errors = List.copyOf(errors);
    }

    /** @return one line per problem, in file order. */
    public List<String> errors()
    {
        return errors;
    }
}
