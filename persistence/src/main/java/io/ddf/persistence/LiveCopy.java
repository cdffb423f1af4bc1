package io.ddf.persistence;

import io.ddf.persistence.platform.Descriptors;
import io.ddf.persistence.platform.Libc;
import com.sun.jna.Pointer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.ddf.persistence.FilterFileException.Reason.IO;

/**
 * The durable side of a live-placed file ({@link LivePlacement}): the file in the data directory, whose descriptor
 * holds the file's lock, while the mapping is of the live copy on a tmpfs. What a force of an in-place file does with
 * {@code msync} this does by hand: the range is written from the mapping into the durable file at the same offsets
 * (positional writes straight from the mapped memory), then {@code fdatasync}; the durable file's cached pages are
 * then dropped ({@code POSIX_FADV_DONTNEED}), so that the table is not held twice in RAM.
 *
 * <p>Why this is no weaker than an in-place mapping: there the kernel may write any dirty page at any moment, so the
 * file on the device is already a fuzzy image that the change log's replay from the header's checkpoint position
 * repairs; here the device gets pages only at a force, each force writing what the mapping held while it read it.
 * The order a checkpoint relies on is the caller's as before: the table's force returns once the pages are on the
 * device, and only then is the header (with the new position) forced.
 */
final class LiveCopy
{
    /** Bytes written per call: a ByteBuffer view holds at most 2 GiB, and the zero check works in these steps. */
    private static final int CHUNK = 1 << 20;

    private Path durablePath;
    private Path livePath;
    private final RandomAccessFile durable;
    private final LiveHeader header;
    /** The durable file holds zeros from here on (a file or growth made by this handle and never written there). */
    private long zeroFrom;
    private boolean accepted;

    /**
     * @param durablePath the file in the data directory.
     * @param livePath    its live copy.
     * @param durable     the durable file, open read-write and locked. Owned from now on.
     * @param header      where the format keeps its seal word.
     * @param zeroFrom    the durable file's bytes from here on are zeros (its length when not known).
     */
    LiveCopy(final Path durablePath, final Path livePath, final RandomAccessFile durable, final LiveHeader header,
        final long zeroFrom)
    {
        this.durablePath = durablePath;
        this.livePath = livePath;
        this.durable = durable;
        this.header = header;
        this.zeroFrom = zeroFrom;
    }

    /** @return the live copy's path. */
    Path livePath()
    {
        return livePath;
    }

    /** @return the durable file's descriptor (its lock is the file's). */
    RandomAccessFile durable()
    {
        return durable;
    }

    /** The open or creation succeeded: closing now copies the header (the seal) into the durable file. */
    void accept()
    {
        accepted = true;
    }

    /** The temporary names of a creation became the final ones. */
    void renamed(final Path durableName, final Path liveName)
    {
        durablePath = durableName;
        livePath = liveName;
    }

    /**
     * Copies {@code [offset, offset + bytes)} of the file from the mapping into the durable file, then makes it
     * durable (fdatasync) and drops it from the page cache.
     *
     * @param address the mapped address of byte {@code offset}.
     */
    void force(final long address, final long offset, final long bytes)
    {
        copy(address, offset, bytes);
        sync(offset, bytes);
    }

    /**
     * Writes a range from the mapping into the durable file (not yet durable: {@link #sync}). Where the durable file
     * is known to hold zeros, zero stretches of the mapping are skipped (a new 1.46 GB table costs its header page).
     */
    synchronized void copy(final long address, final long offset, final long bytes)
    {
        final FileChannel channel = durable.getChannel();
        try
        {
            for (long done = 0; done < bytes; done += CHUNK)
            {
                final int n = (int)Math.min(CHUNK, bytes - done);
                if (offset + done >= zeroFrom && allZero(address + done, n))
                {
                    continue;
                }
                final ByteBuffer view = new Pointer(address + done).getByteBuffer(0, n);
                long position = offset + done;
                while (view.hasRemaining())
                {
                    position += channel.write(view, position);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, durablePath, "cannot write the live copy's pages into the file: " + ex,
                ex);
        }
        if (offset <= zeroFrom)
        {
            zeroFrom = Math.max(zeroFrom, offset + bytes);
        }
    }

    /** fdatasync of the durable file, then its pages in {@code [offset, offset + bytes)} dropped from the cache. */
    void sync(final long offset, final long bytes)
    {
        try
        {
            durable.getChannel().force(false);
        }
        catch (final IOException ex)
        {
            throw new FilterFileException(IO, durablePath, "fsync failed: " + ex, ex);
        }
        Libc.dropCached(Descriptors.of(durable), offset, bytes);
    }

    /** The durable file's length changed (grown or cut by the caller, in step with the live copy). */
    synchronized void resized(final long newLength)
    {
        zeroFrom = Math.min(zeroFrom, newLength);
    }

    /**
     * Before the unmapping: an accepted file's header page goes to the durable file (a seal stored after the last
     * force, unforced, as the page cache would have written it for an in-place file). A file closed cleanly (its seal
     * word set) is then wholly in the durable file: that is forced and the live copy deleted, freeing its RAM; the
     * next open copies it back.
     *
     * @param headerAddress the mapped address of byte 0.
     */
    void beforeUnmap(final long headerAddress)
    {
        if (!accepted)
        {
            return; // a refused open or a failed creation leaves the durable file as it found it
        }
        copy(headerAddress, 0, LiveHeader.BYTES);
        if (new UnsafeBuffer(headerAddress, LiveHeader.BYTES).getIntVolatile(header.seal()) == header.sealValue())
        {
            sync(0, LiveHeader.BYTES);
            try
            {
                Files.deleteIfExists(livePath);
            }
            catch (final IOException ex)
            {
                throw new FilterFileException(IO, durablePath, "cannot delete the live copy " + livePath + ": " + ex,
                    ex);
            }
        }
    }

    /** Closes the durable descriptor, releasing the file's lock: after the unmapping. */
    void close()
    {
        try
        {
            durable.close();
        }
        catch (final IOException ignored)
        {
            // nothing written through it is lost by a failed close: every force synced it
        }
    }

    private static boolean allZero(final long address, final int bytes)
    {
        final UnsafeBuffer memory = new UnsafeBuffer(address, bytes);
        for (int i = 0; i < bytes; i += Long.BYTES)
        {
            if (memory.getLong(i) != 0)
            {
                return false;
            }
        }
        return true;
    }
}
