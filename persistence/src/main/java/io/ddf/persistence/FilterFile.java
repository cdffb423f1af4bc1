package io.ddf.persistence;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;

import static io.ddf.persistence.FilterFileDescriptor.HEADER_LENGTH;
import static io.ddf.persistence.FilterFileDescriptor.MAJOR_VERSION;
import static io.ddf.persistence.FilterFileDescriptor.MINOR_VERSION;
import static io.ddf.persistence.FilterFileDescriptor.STATE_LENGTH;
import static io.ddf.persistence.FilterFileDescriptor.STATE_OFFSET;
import static io.ddf.persistence.FilterFileDescriptor.TABLE_OFFSET;
import static io.ddf.persistence.FilterFileException.Reason.EXISTS;
import static io.ddf.persistence.FilterFileException.Reason.IO;
import static io.ddf.persistence.FilterFileException.Reason.LOCKED;
import static io.ddf.persistence.FilterFileException.Reason.NOT_FOUND;

/**
 * One filter's file: a checksummed header, a mutable state region and the table, mapped with Chronicle Bytes.
 * See {@code FORMAT.md} beside this class for the byte layout, and {@link FilterFileDescriptor}.
 *
 * <ul>
 *   <li>{@link #create}: reserves the whole file up front (free space checked, every byte allocated) so a full
 *       disk fails here with {@link FilterFileException.Reason#NO_SPACE}, never while streaming; writes the
 *       header fields, the checksum, forces, then publishes the ready word with a release store and forces again.
 *       A null path makes an anonymous temporary file that is unlinked as soon as it is opened.</li>
 *   <li>{@link #open}: validates before changing anything and leaves a bad file byte-for-byte unchanged.</li>
 *   <li>One writer: an OS file lock held for the file's lifetime, plus an in-process registry so a second
 *       open in the same JVM fails with {@link FilterFileException.Reason#LOCKED} naming the file.</li>
 * </ul>
 *
 * <p>The addresses returned by {@link #tableAddress()} and {@link #stateAddress()} stay valid until
 * {@link #close()}; touching them afterwards touches unmapped memory and can crash the JVM.
 */
public final class FilterFile implements AutoCloseable
{
    static
    {
        ChronicleSettings.apply();
    }

    private final Path path;
    private final FilterFileHeader header;
    private final MappedRegion region;
    private final FileLock lock;
    private final Object registryKey;
    private final long tableAddress;
    private final long tableLength;
    private final long stateAddress;
    private final long stateLength;
    private boolean closed;

    private FilterFile(
        final Path path, final FilterFileHeader header, final MappedRegion region, final FileLock lock,
        final Object registryKey)
    {
        this.path = path;
        this.header = header;
        this.region = region;
        this.lock = lock;
        this.registryKey = registryKey;
        this.tableAddress = region.address() + header.tableOffset();
        this.tableLength = header.spec().tableLength();
        this.stateAddress = region.address() + header.stateOffset();
        this.stateLength = header.stateLength();
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
        return create(path, spec, System.currentTimeMillis());
    }

    /**
     * {@link #create(Path, FilterFileSpec)} with a given creation time, so tests can make identical files.
     */
    static FilterFile create(final Path path, final FilterFileSpec spec, final long createdMillis)
    {
        Objects.requireNonNull(spec, "spec");
        final FilterFileHeader header = new FilterFileHeader(
            spec, MAJOR_VERSION, MINOR_VERSION, createdMillis, TABLE_OFFSET, STATE_OFFSET, STATE_LENGTH);
        return path == null ? createAnonymous(header) : createNamed(path, header);
    }

    private static FilterFile createNamed(final Path path, final FilterFileHeader header)
    {
        if (Files.exists(path, LinkOption.NOFOLLOW_LINKS))
        {
            throw new FilterFileException(EXISTS, path, "already exists; refusing to overwrite it");
        }
        final Path directory = path.toAbsolutePath().getParent();
        final long fileLength = header.fileLength();
        Preallocator.checkSpace(directory, fileLength, path);
        try
        {
            // O_CREAT|O_EXCL: never clobbers, and a keyed file is private from its first instant.
            Files.createFile(path, permissions(header.spec().keyed()));
        }
        catch (final FileAlreadyExistsException ex)
        {
            throw new FilterFileException(EXISTS, path, "already exists; refusing to overwrite it", ex);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot create: " + ex, ex);
        }

        Object registryKey = null;
        RandomAccessFile raf = null;
        boolean done = false;
        try
        {
            registryKey = OpenFileRegistry.claim(path);
            raf = new RandomAccessFile(path.toFile(), "rw");
            final FileLock lock = tryLock(raf.getChannel(), path);
            final FilterFile file = initialise(path, path.toFile(), directory, raf, header, lock, registryKey);
            done = true;
            return file;
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot create: " + ex, ex);
        }
        finally
        {
            if (!done)
            {
                closeQuietly(raf);
                OpenFileRegistry.release(registryKey);
                deleteQuietly(path);
            }
        }
    }

    private static FilterFile createAnonymous(final FilterFileHeader header)
    {
        final Path directory = Path.of(System.getProperty("java.io.tmpdir"));
        Preallocator.checkSpace(directory, header.fileLength(), null);
        final Path temp;
        try
        {
            temp = Files.createTempFile(directory, "ddf-", ".filter", permissions(true));
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, null, "cannot create a temporary file in " + directory + ": " + ex, ex);
        }
        RandomAccessFile raf = null;
        boolean done = false;
        try
        {
            raf = new RandomAccessFile(temp.toFile(), "rw");
            // Unlinked at once: the descriptor (and later the mapping) keeps the data alive, and nothing is
            // left behind if the process dies, even by kill -9. No other process can open it, so no lock.
            Files.delete(temp);
            final FilterFile file = initialise(null, temp.toFile(), directory, raf, header, null, null);
            done = true;
            return file;
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, null, "cannot create a temporary file in " + directory + ": " + ex, ex);
        }
        finally
        {
            if (!done)
            {
                closeQuietly(raf);
                deleteQuietly(temp);
            }
        }
    }

    /**
     * Reserves, writes and publishes a new file. On failure the descriptor is closed (the caller deletes).
     */
    private static FilterFile initialise(
        final Path path, final File file, final Path directory, final RandomAccessFile raf,
        final FilterFileHeader header, final FileLock lock, final Object registryKey) throws IOException
    {
        final FileChannel channel = raf.getChannel();
        final long fileLength = header.fileLength();
        Preallocator.fillWithZeros(channel, fileLength, path, directory);
        writeFully(channel, HeaderCodec.encode(header.spec(), header.createdMillis()));
        // The fields and checksum reach the device before the ready word can: a crash leaves NOT_READY.
        channel.force(true);

        final MappedRegion region = new MappedRegion(file, raf, fileLength, path);
        try
        {
            FilterFileDescriptor.putReadyWordRelease(new UnsafeBuffer(region.address(), HEADER_LENGTH));
            region.sync(path);
            final FilterFile filterFile = new FilterFile(path, header, region, lock, registryKey);
            if (registryKey != null)
            {
                OpenFileRegistry.publish(registryKey, filterFile);
            }
            return filterFile;
        }
        catch (final RuntimeException ex)
        {
            region.release();
            throw ex;
        }
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
        Objects.requireNonNull(path, "path");
        final Object registryKey;
        try
        {
            registryKey = OpenFileRegistry.claim(path);
        }
        catch (final NoSuchFileException ex)
        {
            throw new FilterFileException(NOT_FOUND, path, "no such file", ex);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot open: " + ex, ex);
        }

        RandomAccessFile raf = null;
        boolean done = false;
        try
        {
            // Opening read-write changes no byte; mapping waits until the header is validated.
            raf = new RandomAccessFile(path.toFile(), "rw");
            final FileLock lock = tryLock(raf.getChannel(), path);
            final FilterFileHeader header = HeaderReader.read(raf.getChannel(), path).header();
            final MappedRegion region = new MappedRegion(path.toFile(), raf, header.fileLength(), path);
            final FilterFile file = new FilterFile(path, header, region, lock, registryKey);
            OpenFileRegistry.publish(registryKey, file);
            done = true;
            return file;
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot open for writing: " + ex, ex);
        }
        finally
        {
            if (!done)
            {
                closeQuietly(raf);
                OpenFileRegistry.release(registryKey);
            }
        }
    }

    /**
     * Reads and validates a file's header and a copy of its state region without locking, mapping or changing it.
     * When this JVM holds the file open, the snapshot comes from that handle: opening and closing another
     * channel of the file would drop the holder's lock.
     *
     * @param path the file.
     * @return what the header and state region hold.
     */
    public static FilterFileSnapshot inspect(final Path path)
    {
        Objects.requireNonNull(path, "path");
        try
        {
            for (int attempt = 0; attempt < 100; attempt++)
            {
                final OpenFileRegistry.Entry holder = OpenFileRegistry.holder(path);
                if (holder == null)
                {
                    return inspectUnheld(path);
                }
                final FilterFile file = holder.file;
                final FilterFileSnapshot snapshot = file == null ? null : file.snapshot();
                if (snapshot != null)
                {
                    return snapshot;
                }
                Thread.onSpinWait(); // being opened or closed right now
            }
            throw new FilterFileException(LOCKED, path, "is being opened or closed in this process; try again");
        }
        catch (final NoSuchFileException ex)
        {
            throw new FilterFileException(NOT_FOUND, path, "no such file", ex);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot read: " + ex, ex);
        }
    }

    private static FilterFileSnapshot inspectUnheld(final Path path) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            final HeaderReader.Result result = HeaderReader.read(channel, path);
            final FilterFileHeader h = result.header();
            return new FilterFileSnapshot(
                h.spec(), h.majorVersion(), h.minorVersion(), h.createdMillis(), h.fileLength(), result.stateCopy());
        }
    }

    /**
     * @return what this file holds now (header fields and a copy of the state region), or null once closed.
     */
    public synchronized FilterFileSnapshot snapshot()
    {
        if (closed)
        {
            return null;
        }
        final byte[] state = new byte[(int)stateLength];
        new UnsafeBuffer(stateAddress, (int)stateLength).getBytes(0, state);
        return new FilterFileSnapshot(
            header.spec(), header.majorVersion(), header.minorVersion(), header.createdMillis(), region.length(), state);
    }

    /** @return the header's immutable fields. */
    public FilterFileSpec spec()
    {
        return header.spec();
    }

    /** @return format major version of the file. */
    public int majorVersion()
    {
        return header.majorVersion();
    }

    /** @return format minor version of the file. */
    public int minorVersion()
    {
        return header.minorVersion();
    }

    /** @return creation time, epoch milliseconds. */
    public long createdMillis()
    {
        return header.createdMillis();
    }

    /** @return whether this is an anonymous temporary file, gone once closed. */
    public boolean temporary()
    {
        return path == null;
    }

    /** @return the file's length in bytes, all of it mapped. */
    public long fileLength()
    {
        return region.length();
    }

    /** @return absolute address of the table's first byte (64-byte aligned). Valid until {@link #close()}. */
    public long tableAddress()
    {
        return tableAddress;
    }

    /** @return length of the table in bytes. */
    public long tableLength()
    {
        return tableLength;
    }

    /**
     * @return absolute address of the state region (counters and other mutable state, 64-byte aligned).
     *         Valid until {@link #close()}.
     */
    public long stateAddress()
    {
        return stateAddress;
    }

    /** @return length of the state region in bytes. */
    public long stateLength()
    {
        return stateLength;
    }

    /** @return the file's path, or null for an anonymous file. */
    public Path path()
    {
        return path;
    }

    /**
     * Forces the mapped pages to the storage device (msync). Without it, process death (even kill -9) loses
     * nothing written to the mapping, but power loss or a kernel crash may lose what was written since.
     */
    public synchronized void flush()
    {
        if (closed)
        {
            throw new IllegalStateException((path == null ? "anonymous filter file" : path.toString()) + " is closed");
        }
        region.sync(path);
    }

    /** Unmaps the file and releases its lock (closing its one descriptor). Idempotent. Deletes nothing. */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            // Chronicle closes the descriptor when it releases the mapping, which releases the lock with it.
            region.release();
        }
        finally
        {
            OpenFileRegistry.release(registryKey);
        }
    }

    /** @return whether the OS lock is held (always false for an anonymous file, which needs none). */
    public boolean locked()
    {
        return lock != null && lock.isValid();
    }

    @Override
    public String toString()
    {
        return "FilterFile{" + (path == null ? "anonymous" : path) + ", " + header.spec() + '}';
    }

    private static FileLock tryLock(final FileChannel channel, final Path path) throws IOException
    {
        FileLock lock;
        try
        {
            lock = channel.tryLock();
        }
        catch (final OverlappingFileLockException ex)
        {
            lock = null; // this JVM holds it under another name the registry did not recognise
        }
        if (lock == null)
        {
            throw new FilterFileException(LOCKED, path,
                "is open for writing by another process; one writer at a time");
        }
        return lock;
    }

    private static void writeFully(final FileChannel channel, final ByteBuffer buffer) throws IOException
    {
        long position = 0;
        buffer.position(0);
        while (buffer.hasRemaining())
        {
            position += channel.write(buffer, position);
        }
    }

    private static FileAttribute<?>[] permissions(final boolean ownerOnly)
    {
        if (!ownerOnly || !FileSystems.getDefault().supportedFileAttributeViews().contains("posix"))
        {
            return new FileAttribute<?>[0];
        }
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))};
    }

    private static void closeQuietly(final RandomAccessFile raf)
    {
        if (raf != null)
        {
            try
            {
                raf.close();
            }
            catch (final IOException ignore)
            {
                // already failing; the original error matters more
            }
        }
    }

    private static void deleteQuietly(final Path path)
    {
        try
        {
            Files.deleteIfExists(path);
        }
        catch (final IOException ignore)
        {
            // already failing; the original error matters more
        }
    }
}
