package io.ddf.persistence.log;

import java.nio.file.Path;

/**
 * The change log cannot be written (a full disk: no room for its next segment; an I/O error forcing it): a write
 * that needs the log must be refused, naming the log's directory, until {@link ChangeLog#retry()} succeeds; reads
 * go on. Nothing acknowledged before is lost.
 */
public final class LogUnavailableException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** The log's directory (not serialised: a path is not). */
    private final transient Path directory;

    /**
     * @param directory the log's directory.
     * @param message   why.
     * @param cause     the failure, or null.
     */
    public LogUnavailableException(final Path directory, final String message, final Throwable cause)
    {
        super("change log " + directory + " cannot be written: " + message, cause);
        this.directory = directory;
    }

    /** @return the log's directory. */
    public Path directory()
    {
        return directory;
    }
}
