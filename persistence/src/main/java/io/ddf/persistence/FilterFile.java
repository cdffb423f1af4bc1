package io.ddf.persistence;

import java.nio.file.Path;

/**
 * One filter's file: a checksummed header, a mutable state region and the table, mapped with Chronicle Bytes.
 * See {@code FORMAT.md} beside this class for the byte layout.
 *
 * <p>API CONTRACT (implementation to be written):
 * <ul>
 *   <li>{@link #create}: reserves the whole file up front (free space checked, every byte allocated) so a full
 *       disk fails here with {@link FilterFileException.Reason#NO_SPACE}, never while streaming; writes the
 *       header fields, the checksum, forces, then publishes the ready word with a volatile store.
 *       A null path makes an anonymous temporary file that is removed (unlinked) once mapped.</li>
 *   <li>{@link #open}: validates before changing anything and leaves a bad file byte-for-byte unchanged.</li>
 *   <li>One writer: an OS file lock held for the file's lifetime, plus an in-process registry so a second
 *       open in the same JVM fails with {@link FilterFileException.Reason#LOCKED} naming the file.</li>
 * </ul>
 */
public final class FilterFile implements AutoCloseable
{
    private FilterFile()
    {
    }

    /**
     * Creates a new filter file and maps it.
     *
     * @param path where to create it; null for an anonymous temporary file.
     * @param spec what to write in the header.
     * @return the mapped file, table and state zeroed.
     * @throws FilterFileException when the file exists, space is short, or I/O fails.
     */
    public static FilterFile create(final Path path, final FilterFileSpec spec)
    {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Opens and maps an existing filter file for writing, after validating its header.
     *
     * @param path the file.
     * @return the mapped file.
     * @throws FilterFileException for a foreign, corrupt, truncated, unready, locked or missing file.
     */
    public static FilterFile open(final Path path)
    {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /**
     * Reads and validates a file's header and a copy of its state region without locking, mapping or changing it.
     *
     * @param path the file.
     * @return what the header and state region hold.
     */
    public static FilterFileSnapshot inspect(final Path path)
    {
        throw new UnsupportedOperationException("not yet implemented");
    }

    /** @return the header's immutable fields. */
    public FilterFileSpec spec()
    {
        throw new UnsupportedOperationException();
    }

    /** @return absolute address of the table's first byte (64-byte aligned). */
    public long tableAddress()
    {
        throw new UnsupportedOperationException();
    }

    /** @return length of the table in bytes. */
    public long tableLength()
    {
        throw new UnsupportedOperationException();
    }

    /** @return absolute address of the state region (counters and other mutable state, 64-byte aligned). */
    public long stateAddress()
    {
        throw new UnsupportedOperationException();
    }

    /** @return length of the state region in bytes. */
    public long stateLength()
    {
        throw new UnsupportedOperationException();
    }

    /** @return the file's path, or null for an anonymous file. */
    public Path path()
    {
        throw new UnsupportedOperationException();
    }

    /** Forces the mapped pages to the storage device (msync). */
    public void flush()
    {
        throw new UnsupportedOperationException();
    }

    /** Unmaps the file and releases its lock. Idempotent. */
    @Override
    public void close()
    {
        throw new UnsupportedOperationException();
    }
}
