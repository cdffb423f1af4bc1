package io.ddf.persistence;

import java.nio.file.Path;

/**
 * A filter file could not be created, opened or used. The message names the file and says what is wrong;
 * {@link #reason()} lets callers (and tests) tell the cases apart.
 */
public class FilterFileException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** Why the operation failed. */
    public enum Reason
    {
        /** Not a ddf filter file: wrong magic, or too short to hold a header. */
        FOREIGN,
        /** A ddf file of a major format version this build cannot read. */
        UNSUPPORTED_VERSION,
        /** The header checksum does not match its contents. */
        CORRUPT,
        /** Shorter than its header says. */
        TRUNCATED,
        /** The header was never published: creation did not finish. */
        NOT_READY,
        /** Another process, or another open in this process, holds the file for writing. */
        LOCKED,
        /** The file exists already (create) or does not exist (open). */
        EXISTS,
        /** No such file. */
        NOT_FOUND,
        /** Not enough space to reserve the whole file at creation. */
        NO_SPACE,
        /** The file's permissions are unsafe for the secret it holds. */
        PERMISSIONS,
        /** The file was made with other parameters than the ones asked for. */
        PARAMETER_MISMATCH,
        /** Any other I/O failure. */
        IO
    }

    private final Reason reason;
    private final transient Path path;

    /**
     * @param reason  why.
     * @param path    the file concerned, may be null for an anonymous file.
     * @param message what is wrong, in words a user can act on.
     */
    public FilterFileException(final Reason reason, final Path path, final String message)
    {
        super(path == null ? message : path + ": " + message);
        this.reason = reason;
        this.path = path;
    }

    /**
     * @param reason  why.
     * @param path    the file concerned, may be null.
     * @param message what is wrong.
     * @param cause   the underlying failure.
     */
    public FilterFileException(final Reason reason, final Path path, final String message, final Throwable cause)
    {
        super(path == null ? message : path + ": " + message, cause);
        this.reason = reason;
        this.path = path;
    }

    /** @return why the operation failed. */
    public Reason reason()
    {
        return reason;
    }

    /** @return the file concerned, or null. */
    public Path path()
    {
        return path;
    }
}
