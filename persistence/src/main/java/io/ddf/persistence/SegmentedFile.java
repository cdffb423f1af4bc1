package io.ddf.persistence;

import io.ddf.persistence.platform.MappingAdvice;
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
import java.nio.file.StandardCopyOption;
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
    private final int fd;
    /** Copied on write: a sync iterates them while the filter's writer may map a new segment. */
    private final List<long[]> mappings = new CopyOnWriteArrayList<>();
    /** The durable side when the mapping is of a live copy ({@link LivePlacement}), else null. */
    private final LiveCopy live;
    private long length;
    private boolean closed;

    /**
     * @param raf  the descriptor mapped (the live copy's, when live); the file's lock is held by the file's own
     *             descriptor (this one, or the live copy's durable one) until it is closed.
     */
    private SegmentedFile(final Path path, final RandomAccessFile raf, final long length, final LiveCopy live)
    {
        this.path = path;
        this.raf = raf;
        this.fd = Descriptors.of(raf);
        this.length = length;
        this.live = live;
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
        return create(path, length, null, initialise);
    }

    /**
     * As {@link #create(Path, long, Consumer)}, live-placed when its directory is ({@link LivePlacement}).
     *
     * @param path       the file to create; must not exist.
     * @param length     its first length, a multiple of {@link #PAGE}.
     * @param header     where the format keeps the fields a live copy is checked by; null: always in place.
     * @param initialise writes the content.
     * @return the file, open for writing, under its name.
     */
    public static SegmentedFile create(final Path path, final long length, final LivePlacement.Header header,
        final Consumer<SegmentedFile> initialise)
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
        final Path livePath = header == null ? null : LivePlacement.liveFor(path);
        final Path liveTemp = livePath == null ? null : Leftovers.temporaryFor(livePath);
        SegmentedFile file = null;
        boolean done = false;
        try
        {
            Files.createFile(temp, FileCreation.permissions());
            if (liveTemp != null)
            {
                Files.createFile(liveTemp, FileCreation.permissions());
            }
            file = lockAndWrap(temp, 0, liveTemp, header);
            file.grow(length);
            initialise.accept(file);
            file.force();
            FileCreation.moveIntoPlace(temp, path);
            if (liveTemp != null)
            {
                // after the durable name: a death between the two leaves a file whose open restores the live copy
                Files.move(liveTemp, livePath, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            FileCreation.syncDirectory(directory, path);
            done = true;
            return file.renamed(path, livePath);
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
                    if (liveTemp != null)
                    {
                        Files.deleteIfExists(liveTemp);
                    }
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
        return open(path, null);
    }

    /**
     * As {@link #open(Path)}, live-placed when its directory is ({@link LivePlacement}): the live copy mapped when it
     * belongs to the file, else made again from it (and then told apart by its cleared boot id,
     * {@link LivePlacement.Header}).
     *
     * @param path   the file.
     * @param header where the format keeps the fields a live copy is checked by; null: always in place.
     * @return the file; nothing is mapped yet.
     */
    public static SegmentedFile open(final Path path, final LivePlacement.Header header)
    {
        JvmFlags.require();
        if (!Files.isRegularFile(path))
        {
            throw new FilterFileException(NOT_FOUND, path, "no such file");
        }
        try
        {
            final Path livePath = header == null ? null : LivePlacement.liveFor(path);
            if (livePath == null)
            {
                return lockAndWrap(path, Files.size(path), null, null);
            }
            final RandomAccessFile durable = lockedDurable(path);
            final LiveCopy.Opened opened;
            try
            {
                opened = LiveCopy.open(path, durable, livePath, header, true);
            }
            catch (final IOException | RuntimeException ex)
            {
                durable.close();
                throw ex;
            }
            final SegmentedFile file = new SegmentedFile(path, opened.live(), opened.live().length(), opened.copy());
            opened.copy().accept();
            return file;
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot open the file: " + ex, ex);
        }
    }

    private static SegmentedFile lockAndWrap(final Path path, final long length, final Path liveTemp,
        final LivePlacement.Header header) throws IOException
    {
        final RandomAccessFile raf = lockedDurable(path);
        if (liveTemp == null)
        {
            return new SegmentedFile(path, raf, length, null);
        }
        try
        {
            final RandomAccessFile liveRaf = new RandomAccessFile(liveTemp.toFile(), "rw");
            final LiveCopy copy = new LiveCopy(path, liveTemp, raf, header, 0);
            copy.accept();
            return new SegmentedFile(path, liveRaf, length, copy);
        }
        catch (final IOException | RuntimeException ex)
        {
            raf.close();
            throw ex;
        }
    }

    /** @return the file, open read-write and locked (the lock kept by the descriptor until it is closed). */
    private static RandomAccessFile lockedDurable(final Path path) throws IOException
    {
        final RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw");
        try
        {
            final FileLock lock = raf.getChannel().tryLock();
            if (lock == null)
            {
                throw new FilterFileException(LOCKED, path, "another process holds the file for writing");
            }
            return raf;
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


    private SegmentedFile renamed(final Path name, final Path liveName)
    {
        if (live != null)
        {
            live.renamed(name, liveName);
        }
        final SegmentedFile named = new SegmentedFile(name, raf, length, live);
        named.mappings.addAll(mappings);
        mappings.clear();
        closed = true; // the descriptors, lock and mappings now belong to the named file
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
     * Maps {@code [offset, offset + bytes)} read-write and shared, on huge pages (a table's mapping); the mapping lasts
     * until {@link #close}.
     *
     * @param offset where the segment starts, a multiple of {@link #PAGE}.
     * @param bytes  its length, a multiple of {@link #PAGE}, within the file.
     * @return the address of its first byte.
     */
    public long map(final long offset, final long bytes)
    {
        return map(offset, bytes, MappingAdvice.Pages.HUGE);
    }

    /**
     * Maps {@code [offset, offset + bytes)} read-write and shared, advised for the pages it wants before anything
     * faults it in; the mapping lasts until {@link #close}.
     *
     * @param offset where the segment starts, a multiple of {@link #PAGE}.
     * @param bytes  its length, a multiple of {@link #PAGE}, within the file.
     * @param pages  huge for a table, small for a change log's segment ({@link MappingAdvice.Pages}).
     * @return the address of its first byte.
     */
    public long map(final long offset, final long bytes, final MappingAdvice.Pages pages)
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
        MappingAdvice.advise(address, bytes, pages);
        mappings.add(new long[] {address, bytes, offset});
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
        // a live copy grows on its tmpfs, which must have room (a growth fails here, clearly, rather than a store
        // later with SIGBUS), and the durable file on the disk, in step (its blocks allocated first)
        final Path mappedDirectory = live == null ? directory : live.livePath().toAbsolutePath().getParent();
        if (live != null)
        {
            Preallocator.checkSpace(mappedDirectory, newLength - length, path);
        }
        try
        {
            if (live != null)
            {
                Preallocator.allocate(live.durable(), length, newLength, path, directory);
                if (live.durable().length() < newLength)
                {
                    live.durable().setLength(newLength);
                }
            }
            Preallocator.allocate(raf, length, newLength, path, mappedDirectory);
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
        if (live != null)
        {
            live.resized(length); // the new range is zeros in the durable file until a force writes it
        }
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
            if (live != null)
            {
                live.durable().setLength(newLength);
                live.resized(newLength);
            }
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
            if (live != null)
            {
                live.durable().setLength(newLength);
            }
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
        if (live != null)
        {
            // each segment written into the durable file from its live mapping, then one fdatasync
            for (final long[] mapping : mappings)
            {
                live.copy(mapping[0], mapping[2], mapping[1]);
            }
            live.sync(0, length);
            return;
        }
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

    /**
     * Forces one mapped range alone (a header page): an msync of it, or for a live copy its bytes written into the
     * durable file and fdatasync.
     *
     * @param address a mapped address, of a page's first byte, returned by {@link #map} or inside such a segment.
     * @param bytes   how many bytes from there, within that segment.
     */
    public void force(final long address, final long bytes)
    {
        checkOpen();
        if (live == null)
        {
            if (PosixAPI.posix().msync(address, bytes, MSyncFlag.MS_SYNC) != 0)
            {
                throw new FilterFileException(IO, path, "msync failed: " + PosixAPI.posix().lastErrorStr());
            }
            return;
        }
        for (final long[] mapping : mappings)
        {
            if (address >= mapping[0] && address + bytes <= mapping[0] + mapping[1])
            {
                live.force(address, mapping[2] + address - mapping[0], bytes);
                return;
            }
        }
        throw new IllegalArgumentException(path + ": [" + address + ", +" + bytes + ") is not inside one mapping");
    }

    /** @return the live copy's path, or null when the file is mapped in place. */
    public Path livePath()
    {
        return live == null ? null : live.livePath();
    }

    /**
     * Unmaps every segment and releases the lock; the addresses handed out are invalid from now on. A live copy's
     * header page is written into the durable file first, and a file closed cleanly has its live copy deleted
     * ({@code LiveCopy.beforeUnmap}).
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        if (live != null)
        {
            for (final long[] mapping : mappings)
            {
                if (mapping[2] == 0)
                {
                    try
                    {
                        live.beforeUnmap(mapping[0]);
                    }
                    catch (final RuntimeException ex)
                    {
                        failure = ex;
                    }
                }
            }
        }
        final PosixAPI posix = PosixAPI.posix();
        for (final long[] mapping : mappings)
        {
            posix.munmap(mapping[0], mapping[1]);
        }
        mappings.clear();
        try
        {
            raf.close(); // releases the lock too (in place)
        }
        catch (final IOException ignored)
        {
            // nothing more can be done for a descriptor that fails to close
        }
        if (live != null)
        {
            live.close(); // the durable descriptor: releases the lock
        }
        if (failure != null)
        {
            throw failure;
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
