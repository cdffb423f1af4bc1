package io.ddf.engine;

import java.util.Locale;

/** Every filter kind ddf builds, with the code stored in a file's header and the name used on the command line. */
public enum FilterKind
{
    /** Quotient Hash Table (seed 000, Alg. 1). */
    QHT(1),
    /** QHT that inserts duplicates too (seed 000, §5.1). */
    QHTD(2),
    /** Queued QHT with duplicates: FIFO rows (seed 000, Alg. 2). */
    QQHTD(3),
    /** Streaming Quotient Filter (seed 004, Alg. 1). */
    SQF(4);

    private final int code;

    FilterKind(final int code)
    {
        this.code = code;
    }

    /** @return the code stored in a file header. */
    public int code()
    {
        return code;
    }

    /** @return the lowercase command-line name. */
    public String cliName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param code a header code.
     * @return the kind with that code.
     * @throws IllegalArgumentException for an unknown code.
     */
    public static FilterKind fromCode(final int code)
    {
        for (final FilterKind kind : values())
        {
            if (kind.code == code)
            {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown filter kind code " + code);
    }

    /**
     * @param name a command-line name, any case.
     * @return the kind.
     * @throws IllegalArgumentException naming the valid names.
     */
    public static FilterKind fromName(final String name)
    {
        for (final FilterKind kind : values())
        {
            if (kind.cliName().equalsIgnoreCase(name))
            {
                return kind;
            }
        }
        final StringBuilder valid = new StringBuilder();
        for (final FilterKind kind : values())
        {
            valid.append(valid.length() == 0 ? "" : ", ").append(kind.cliName());
        }
        throw new IllegalArgumentException("unknown filter '" + name + "' (valid: " + valid + ")");
    }
}
