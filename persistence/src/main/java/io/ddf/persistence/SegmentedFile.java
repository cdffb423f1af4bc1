package io.ddf.persistence;

import io.ddf.persistence.platform.JvmFlags;
import io.ddf.persistence.platform.Descriptors;
import net.openhft.posix.MSyncFlag;
import net.openhft.posix.PosixAPI;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import static io.ddf.persistence.FilterFileException.Reason.EXISTS;
import static io.ddf.persistence.FilterFileException.Reason.IO;
import static io.ddf.persistence.FilterFileException.Reason.LOCKED;
import static io.ddf.persistence.FilterFileException.Reason.NOT_FOUND;

/**
 * A file that grows while mapped: the filters that scale (a chain of layers that gains one when the newest is full)
 * keep their layers in one file, each layer a page-aligned segment mapped on its own.
 *
 * <p>Why segments instead of one mapping remapped: a segment, once mapped, stays mapped at the same address until
 * the file is closed, so threads reading an older layer never see its address change under them, and growing never
 * copies or unmaps anything. Growth allocates the new blocks first ({@code fallocate}, else zeros written), so a full
 * disk fails the growth as an exception, never a later store as a SIGBUS.
 *
 * <p>What makes growth crash-safe is the caller's format: it writes the new segment's content, then publishes it
 * (a count in its header) with an ordered store; a process killed before that store leaves bytes past the last
 * published segment, which {@link #truncate} drops at the next open. The file holds an OS lock for writing as long as
 * it is open, so two processes never grow it at once.
 */
public final class SegmentedFile implements AutoCloseable
{
    /** Segments start and end on this boundary (the smallest page of any platform ddf maps on). */
    public static final long PAGE = 4096;
    private static final int PROT_READ_WRITE = 3;
    private static final int MAP_SHARED = 1;
    private static final long MAP_FAILED = -1;

    private final Path path;
    private final RandomAccessFile raf;
    private final FileLock lock;
    private final int fd;
    /** Copied on write: a sync iterates them while the filter's writer may map a new segment. */
    private final List<long[]> mappings = new CopyOnWriteArrayList<>();
    private long length;
    private boolean closed;

    private SegmentedFile(final Path path, final RandomAccessFile raf, final FileLock lock, final long length)
    {
        this.path = path;
        this.raf = raf;
        this.lock = lock;
        this.fd = Descriptors.of(raf);
        this.length = length;
        if (fd < 0)
        {
            throw new FilterFileException(IO, path, "growing files are mapped on Linux only");
        }
    }

    /**
     * Creates a file under a temporary name, lets {@code initialise} write its first content, and gives it its name
     * only then: the name never points at a partial file, and an existing file is never replaced.
     *
     * @param path       the file to create; must not exist.
     * @param length     its first length, a multiple of {@link #PAGE}.
     * @param initialise writes the content (may grow the file); the file is under its temporary name meanwhile.
     * @return the file, open for writing, under its name.
     * @throws FilterFileException {@code EXISTS} when the name is taken, {@code NO_SPACE} when the disk is full.
     */
    public static SegmentedFile create(final Path path, final long length, final Consumer<SegmentedFile> initialise)
    {
        JvmFlags.require();
        checkPageMultiple(length, path);
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN)
        {
            throw new FilterFileException(IO, path, "this build maps filter files on little-endian CPUs only");
        }
        if (Files.exists(path, LinkOption.NOFOLLOW_LINKS))
        {
            throw new FilterFileException(EXISTS, path, "already exists; refusing to overwrite it");
        }
        final Path directory = path.toAbsolutePath().getParent();
        Preallocator.checkSpace(directory, length, path);
        final Path temp = Leftovers.temporaryFor(path);
        SegmentedFile file = null;
        boolean done = false;
        try
        {
            Files.createFile(temp, FileCreation.permissions());
            file = lockAndWrap(temp, 0);
            file.grow(length);
            initialise.accept(file);
            file.force();
            FileCreation.moveIntoPlace(temp, path);
            FileCreation.syncDirectory(directory, path);
            done = true;
            return file.renamed(path);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot create the file: " + ex, ex);
        }
        finally
        {
            if (!done)
            {
                if (file != null)
                {
                    file.close();
                }
                try
                {
                    Files.deleteIfExists(temp);
                }
                catch (final IOException ignored)
                {
                    // start-up removes leftovers (Leftovers.remove)
                }
            }
        }
    }

    /**
     * Opens an existing file for reading and writing, taking its lock.
     *
     * @param path the file.
     * @return the file; nothing is mapped yet.
     * @throws FilterFileException {@code NOT_FOUND}, {@code LOCKED} (another process or open holds it), {@code IO}.
     */
    public static SegmentedFile open(final Path path)
    {
        JvmFlags.require();
        if (!Files.isRegularFile(path))
        {
            throw new FilterFileException(NOT_FOUND, path, "no such file");
        }
        try
        {
            final long size = Files.size(path);
            return lockAndWrap(path, size);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot open the file: " + ex, ex);
        }
    }

    private static SegmentedFile lockAndWrap(final Path path, final long length) throws IOException
    {
        final RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw");
        try
        {
            final FileLock lock = raf.getChannel().tryLock();
            if (lock == null)
            {
                throw new FilterFileException(LOCKED, path, "another process holds the file for writing");
            }
            return new SegmentedFile(path, raf, lock, length);
        }
        catch (final OverlappingFileLockException ex)
        {
            raf.close();
            throw new FilterFileException(LOCKED, path, "already open for writing in this process", ex);
        }
        catch (final IOException | RuntimeException ex)
        {
            raf.close();
            throw ex;
        }
    }

    private SegmentedFile renamed(final Path name)
    {
        final SegmentedFile named = new SegmentedFile(name, raf, lock, length);
        named.mappings.addAll(mappings);
        mappings.clear();
        closed = true; // the descriptor, lock and mappings now belong to the named file
        return named;
    }

    /** @return the file's path. */
    public Path path()
    {
        return path;
    }

    /** @return the file's length in bytes. */
    public long length()
    {
        return length;
    }

    /**
     * Maps {@code [offset, offset + bytes)} read-write and shared; the mapping lasts until {@link #close}.
     *
     * @param offset where the segment starts, a multiple of {@link #PAGE}.
     * @param bytes  its length, a multiple of {@link #PAGE}, within the file.
     * @return the address of its first byte.
     */
    public long map(final long offset, final long bytes)
    {
        checkOpen();
        checkPageMultiple(offset, path);
        checkPageMultiple(bytes, path);
        if (bytes <= 0 || offset < 0 || offset + bytes > length)
        {
            throw new FilterFileException(IO, path, "cannot map [" + offset + ", " + (offset + bytes) +
                ") of a file of " + length + " bytes");
        }
        final PosixAPI posix = PosixAPI.posix();
        final long address = posix.mmap(0, bytes, PROT_READ_WRITE, MAP_SHARED, fd, offset);
        if (address == MAP_FAILED || address == 0)
        {
            throw new FilterFileException(IO, path, "mmap of " + bytes + " bytes failed: " + posix.lastErrorStr());
        }
        MappingAdvice.hugePages(address, bytes);
        mappings.add(new long[] {address, bytes});
        return address;
    }

    /**
     * Faults every segment mapped so far in, writable, now, off the hot path (as a fixed file is at creation): a
     * fresh file's pages otherwise fault one by one under the first random adds (measured, a 10^9 chain at 1 %:
     * 150-180 faults per 1000 BF.ADDs over the first 2,000,000, 8-10 µs of CPU per BF.ADD against 2 µs after;
     * bench/results/daemon/bigtable-2026-11-29.md). Call it on a new file only, once its content is forced: the
     * pages it dirties are zeros the next sync writes once.
     */
    public void prefaultForWrite()
    {
        checkOpen();
        for (final long[] mapping : mappings)
        {
            MappingAdvice.prefaultForWrite(mapping[0], mapping[1]);
        }
    }

    /**
     * Lengthens the file to {@code newLength}, its new blocks allocated (zeros).
     *
     * @param newLength the new length, a multiple of {@link #PAGE}, at least the current one.
     * @throws FilterFileException {@code NO_SPACE} naming the bytes needed and available; the file keeps its length.
     */
    public void grow(final long newLength)
    {
        checkOpen();
        checkPageMultiple(newLength, path);
        if (newLength < length)
        {
            throw new IllegalArgumentException("cannot grow " + path + " from " + length + " to " + newLength);
        }
        if (newLength == length)
        {
            return;
        }
        final Path directory = path.toAbsolutePath().getParent();
        Preallocator.checkSpace(directory, newLength - length, path);
        try
        {
            Preallocator.allocate(raf, length, newLength, path, directory);
            if (raf.length() < newLength)
            {
                raf.setLength(newLength);
            }
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot grow the file: " + ex, ex);
        }
        catch (final FilterFileException ex)
        {
            truncateQuietly(length);
            throw ex;
        }
        length = newLength;
    }

    /**
     * Cuts the file to {@code newLength}: drops what a growth interrupted by a crash left past the last published
     * segment, or a segment no longer used. Nothing mapped past {@code newLength} may be touched afterwards.
     *
     * @param newLength the new length, a multiple of {@link #PAGE}, at most the current one.
     */
    public void truncate(final long newLength)
    {
        checkOpen();
        checkPageMultiple(newLength, path);
        try
        {
            raf.setLength(newLength);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot truncate the file: " + ex, ex);
        }
        length = newLength;
    }

    private void truncateQuietly(final long newLength)
    {
        try
        {
            raf.setLength(newLength);
        }
        catch (final IOException ignored)
        {
            // the next open drops what lies past the last published segment
        }
    }

    /**
     * Forces every mapped segment, then the descriptor, to the device (msync, fsync). Safe while another thread maps
     * a segment (that one is forced by the next call); not while the file closes.
     */
    public void force()
    {
        checkOpen();
        final PosixAPI posix = PosixAPI.posix();
        for (final long[] mapping : mappings)
        {
            if (posix.msync(mapping[0], mapping[1], MSyncFlag.MS_SYNC) != 0)
            {
                throw new FilterFileException(IO, path, "msync failed: " + posix.lastErrorStr());
            }
        }
        try
        {
            raf.getChannel().force(true);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "fsync failed: " + ex, ex);
        }
    }

    /** Unmaps every segment and releases the lock; the addresses handed out are invalid from now on. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        final PosixAPI posix = PosixAPI.posix();
        for (final long[] mapping : mappings)
        {
            posix.munmap(mapping[0], mapping[1]);
        }
        mappings.clear();
        try
        {
            raf.close(); // releases the lock too
        }
        catch (final IOException ignored)
        {
            // nothing more can be done for a descriptor that fails to close
        }
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException(path + " is closed");
        }
    }

    private static void checkPageMultiple(final long value, final Path path)
    {
        if (value % PAGE != 0)
        {
            throw new IllegalArgumentException(path + ": " + value + " is not a multiple of " + PAGE);
        }
    }
}
