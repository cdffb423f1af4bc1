package io.ddf.persistence;

import io.ddf.persistence.platform.MappingAdvice;
import net.openhft.chronicle.bytes.MappedBytesStore;
import net.openhft.chronicle.bytes.MappedFile;
import net.openhft.chronicle.bytes.internal.SingleMappedFile;
import net.openhft.chronicle.core.io.BackgroundResourceReleaser;
import net.openhft.chronicle.core.io.ClosedIllegalStateException;
import net.openhft.chronicle.core.io.ReferenceOwner;
import net.openhft.posix.MSyncFlag;
import net.openhft.posix.PosixAPI;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.file.Path;

import static io.ddf.persistence.FilterFileException.Reason.IO;

/**
 * A whole file mapped read-write with Chronicle Bytes, through the caller's own file descriptor.
 *
 * <p>Why the caller's descriptor: {@code MappedFile.ofSingle} opens a second one, and closing any descriptor
 * of a file drops the process's POSIX lock on it; Chronicle's {@link SingleMappedFile} takes an open
 * {@link RandomAccessFile} instead. Chronicle closes that descriptor when the mapping is released.
 *
 * <p>The mapping is made exactly {@code length} bytes; {@code length} must be a multiple of the page size,
 * else Chronicle would round it up and grow the file to match.
 */
final class MappedRegion
{
    private final ReferenceOwner owner = ReferenceOwner.temporary("ddf-filter-file");
    private final RandomAccessFile raf;
    private final MappedFile mappedFile;
    private final MappedBytesStore store;
    private final long address;
    private final long length;
    /** The durable side when the mapping is of a live copy ({@link LivePlacement}), else null. */
    private LiveCopy live;

    /**
     * @param file   the file (Chronicle wants it for its messages; it may be unlinked already).
     * @param raf    an open, read-write descriptor of the file, at least {@code length} long. Owned from now on.
     * @param length bytes to map from offset 0.
     * @param path   the file, for messages.
     */
    MappedRegion(final File file, final RandomAccessFile raf, final long length, final Path path)
    {
        this(file, raf, length, path, false);
    }

    /**
     * @param file     the file.
     * @param raf      an open descriptor of the file (read-only when {@code readOnly}), at least {@code length}
     *                 long. Owned from now on.
     * @param length   bytes to map from offset 0.
     * @param path     the file, for messages.
     * @param readOnly map for reading only: a store into the mapping then faults.
     */
    MappedRegion(final File file, final RandomAccessFile raf, final long length, final Path path, final boolean readOnly)
    {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN)
        {
            throw new FilterFileException(IO, path, "this build maps filter files on little-endian CPUs only");
        }
        // Every filter file is whole 4 KiB pages (HeaderReader checked the length). No page-size lookup: Chronicle's
        // (PageUtil, for hugetlbfs) is absent before Chronicle Bytes 2.24 and needs java.naming on a jlink'd runtime;
        // on a file system with larger pages the mapping fails below, naming the file.
        if (length % SegmentedFile.PAGE != 0)
        {
            throw new FilterFileException(IO, path, "cannot map " + length + " bytes: not a whole number of " +
                SegmentedFile.PAGE + "-byte pages");
        }
        this.raf = raf;
        this.length = length;
        try
        {
            this.mappedFile = new SingleMappedFile(file, raf, length, readOnly);
            mappedFile.singleThreadedCheckDisabled(true);
            this.store = mappedFile.acquireByteStore(owner, 0);
            store.singleThreadedCheckDisabled(true);
            this.address = readOnly ? store.addressForRead(0) : store.addressForWrite(0);
            if (!readOnly)
            {
                MappingAdvice.hugePages(address, length);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            release();
            throw new FilterFileException(IO, path, "cannot map the file: " + ex, ex);
        }
    }

    /** @return absolute address of byte 0 of the file. */
    long address()
    {
        return address;
    }

    /** @param copy the durable side: from now on every force writes the range into it (the mapping is live). */
    void live(final LiveCopy copy)
    {
        this.live = copy;
    }

    /** @return the durable side of a live mapping, or null when the mapping is of the file itself. */
    LiveCopy live()
    {
        return live;
    }

    /** @return mapped length. */
    long length()
    {
        return length;
    }

    /**
     * msync(MS_SYNC) the whole mapping, then fsync the descriptor. On Linux the two reach the device alike;
     * the fsync also covers platforms where Chronicle's native msync is unavailable.
     *
     * @param path the file, for messages.
     */
    void sync(final Path path)
    {
        if (live != null)
        {
            live.force(address, 0, length);
            return;
        }
        final PosixAPI posix = PosixAPI.posix();
        if (posix.msync(address, length, MSyncFlag.MS_SYNC) != 0)
        {
            throw new FilterFileException(IO, path, "msync failed: " + posix.lastErrorStr());
        }
        try
        {
            raf.getChannel().force(false);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "fsync failed: " + ex, ex);
        }
    }

    /** Faults every page of the mapping in, writable, now ({@link MappingAdvice#prefaultForWrite}). */
    void prefaultForWrite()
    {
        MappingAdvice.prefaultForWrite(address, length);
    }

    /**
     * msync(MS_SYNC) the first {@code length} bytes only: the header page, cheap beside a whole table.
     *
     * @param bytes how many bytes from offset 0, a multiple of the page size.
     * @param path  the file, for messages.
     */
    void syncPrefix(final long bytes, final Path path)
    {
        if (live != null)
        {
            live.force(address, 0, Math.min(bytes, length));
            return;
        }
        final PosixAPI posix = PosixAPI.posix();
        if (posix.msync(address, Math.min(bytes, length), MSyncFlag.MS_SYNC) != 0)
        {
            throw new FilterFileException(IO, path, "msync failed: " + posix.lastErrorStr());
        }
    }

    /**
     * @return the file's length now, as the file system says: another process may have truncated it since it was
     *         mapped, and touching a mapped page past the end raises SIGBUS.
     * @param path the file, for messages.
     */
    long currentFileLength(final Path path)
    {
        try
        {
            return raf.length();
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, path, "cannot read the file's length: " + ex, ex);
        }
    }

    /**
     * Unmaps and closes the descriptor, synchronously: Chronicle releases mapped files on a background thread,
     * and a descriptor closed late would drop a lock taken meanwhile by a new open of the same file.
     */
    void release()
    {
        releaseAll(java.util.List.of(this));
    }

    /**
     * Unmaps many regions and closes their descriptors, waiting once for Chronicle's background releaser instead of
     * once per region: each wait polls with a 1 ms sleep, which made 18,000 filters take 20 s to close (measured:
     * 2,000 read-only mappings released one by one in 2.4-2.6 s).
     *
     * @param regions the regions.
     */
    static void releaseAll(final java.util.Collection<MappedRegion> regions)
    {
        if (regions.isEmpty())
        {
            // nothing to release, and Chronicle's releaser must not be first touched now: its class adds a shutdown
            // hook as it loads, which fails (and fails the close) when this runs in a shutdown hook, as SIGTERM's does
            return;
        }
        RuntimeException failure = null;
        try
        {
            for (final MappedRegion region : regions)
            {
                if (region.live != null)
                {
                    try
                    {
                        region.live.beforeUnmap(region.address);
                    }
                    catch (final RuntimeException ex)
                    {
                        failure = failure == null ? ex : failure;
                    }
                }
                region.releaseMapping();
            }
            BackgroundResourceReleaser.releasePendingResources();
        }
        finally
        {
            for (final MappedRegion region : regions)
            {
                try
                {
                    region.raf.close();
                }
                catch (final IOException ignore)
                {
                    // nothing was written through it that a failed close could lose
                }
                if (region.live != null)
                {
                    region.live.close();
                }
            }
        }
        if (failure != null)
        {
            throw failure;
        }
    }

    private void releaseMapping()
    {
        // Chronicle may have released these already (e.g. a leak check force-releases what it finds);
        // closing must still close the descriptor, so each step tolerates that.
        if (store != null && store.refCount() > 0)
        {
            releaseQuietly(() -> store.release(owner));
        }
        if (mappedFile != null && mappedFile.refCount() > 0)
        {
            releaseQuietly(mappedFile::releaseLast);
        }
        // Chronicle 2.26's SingleMappedFile releases its store under an owner the store was not reserved for, so the
        // store's first reservation outlives the file and the mapping stays until the process exits: a deleted
        // filter's disk blocks were freed only at restart (issue 12; /proc/self/maps showed the mapping after
        // close, after releasePendingResources and after a GC). Releasing that last reservation unmaps it.
        if (store != null && store.refCount() == 1)
        {
            releaseQuietly(store::releaseLast);
        }
    }

    private static void releaseQuietly(final Runnable release)
    {
        try
        {
            release.run();
        }
        catch (final ClosedIllegalStateException alreadyReleased)
        {
            // released concurrently by Chronicle itself: the goal is reached
        }
    }
}
