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
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

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
 *
 * <p>Opening ({@link #open}): the live copy is mapped when it belongs to the durable file, else made again from it.
 * A copy made from the durable file has its boot id cleared (unless the file was closed cleanly), so that the change
 * log's open replays from the checkpoint position instead of taking the restart for one where the page cache
 * survived (FORMAT-LOG.md: SAME_BOOT): the durable file holds the table as of its last checkpoint only.
 */
final class LiveCopy
{
    /** Bytes written per call: a ByteBuffer view holds at most 2 GiB, and the zero check works in these steps. */
    private static final int CHUNK = 1 << 20;
    private static final net.openhft.hashing.LongHashFunction XX3 = net.openhft.hashing.LongHashFunction.xx3();

    private Path durablePath;
    private Path livePath;
    private final RandomAccessFile durable;
    private final LivePlacement.Header header;
    /** The durable file holds zeros from here on (a file or growth made by this handle and never written there). */
    private long zeroFrom;
    private boolean accepted;
    /** File offset of each chunk written to {length, hash of the bytes written} ({@link #writeIfChanged}). */
    private final java.util.Map<Long, long[]> written = new java.util.HashMap<>();
    /** The chunk being written, copied out of the mapping (allocated at the first force). */
    private ByteBuffer staging;

    /**
     * @param durablePath the file in the data directory.
     * @param livePath    its live copy.
     * @param durable     the durable file, open read-write and locked. Owned from now on.
     * @param header      where the format keeps its seal word.
     * @param zeroFrom    the durable file's bytes from here on are zeros (its length when not known).
     */
    LiveCopy(final Path durablePath, final Path livePath, final RandomAccessFile durable,
        final LivePlacement.Header header,
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
        if (staging == null)
        {
            staging = ByteBuffer.allocateDirect(CHUNK);
        }
        try
        {
            for (long done = 0; done < bytes; done += CHUNK)
            {
                final int n = (int)Math.min(CHUNK, bytes - done);
                if (offset + done >= zeroFrom && allZero(address + done, n))
                {
                    continue;
                }
                writeIfChanged(channel, address + done, offset + done, n);
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

    /**
     * Writes one chunk unless the durable file already holds exactly its bytes: the chunk is copied into a private
     * buffer, hashed, and written from that buffer, so the hash kept is of the bytes the file got (a writer changing
     * the mapping meanwhile leaves a chunk whose next hash differs, hence written again). A checkpoint of a big table
     * then writes only the chunks changed since the last (random adds at 10^9 change them all; a lightly written
     * table few). The hash is forgotten before each write, so a failed write is never taken for a done one.
     */
    private void writeIfChanged(final FileChannel channel, final long address, final long position, final int n)
        throws IOException
    {
        final ByteBuffer chunk = staging.clear().limit(n);
        chunk.put(new Pointer(address).getByteBuffer(0, n)).flip();
        final long hash = XX3.hashBytes(chunk);
        final long[] known = written.get(position);
        if (known != null && known[0] == n && known[1] == hash)
        {
            return;
        }
        written.remove(position);
        for (long at = position; chunk.hasRemaining(); )
        {
            at += channel.write(chunk, at);
        }
        written.put(position, new long[] {n, hash});
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
        written.keySet().removeIf(position -> position >= newLength - CHUNK); // a cut (or a regrowth) rewrites them
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
        copy(headerAddress, 0, LivePlacement.Header.BYTES);
        final UnsafeBuffer page = new UnsafeBuffer(headerAddress, LivePlacement.Header.BYTES);
        if (page.getIntVolatile(header.seal()) == header.sealValue())
        {
            sync(0, LivePlacement.Header.BYTES);
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

    /**
     * @param copy     the durable side, to close on failure or hand to the mapping.
     * @param live     the live copy, open read-write: the file to map.
     * @param restored why the live copy was made again from the durable file, or null when it was kept.
     */
    record Opened(LiveCopy copy, RandomAccessFile live, String restored)
    {
    }

    /**
     * @param durablePath the file in the data directory.
     * @param durable     its descriptor, read-write and locked by the caller (owned by the result from now on).
     * @param livePath    where its live copy is.
     * @param header      the format's header fields.
     * @param growing     whether the file grows (a segmented file): the live copy's length is then the file's, and
     *                    the durable file is brought to it; a fixed file's copies must be of one length.
     * @return the live copy to map.
     * @throws IOException when a copy fails.
     */
    static Opened open(final Path durablePath, final RandomAccessFile durable, final Path livePath,
        final LivePlacement.Header header, final boolean growing) throws IOException
    {
        final ByteBuffer durableHeader = firstPage(durable.getChannel());
        final boolean sealed = durableHeader != null && header.sealed(durableHeader);
        final String restored = distrust(durable, durableHeader, sealed, livePath, header, growing);
        if (restored != null)
        {
            restore(durablePath, durable, livePath, header, sealed);
        }
        final RandomAccessFile live = new RandomAccessFile(livePath.toFile(), "rw");
        try
        {
            final long length = live.length();
            if (growing && durable.length() != length)
            {
                // a growth or a cut the process died in the middle of: the live copy is the file, the durable
                // file follows it (its blocks allocated, so that a later force cannot find the disk full)
                if (durable.length() < length)
                {
                    Preallocator.allocate(durable, durable.length(), length, durablePath,
                        durablePath.toAbsolutePath().getParent());
                }
                durable.setLength(length);
            }
            LivePlacement.opened(livePath, restored == null ? "kept (the live copy of this boot)" :
                "restored from the data directory: " + restored);
            return new Opened(new LiveCopy(durablePath, livePath, durable, header, durable.length()), live, restored);
        }
        catch (final IOException | RuntimeException ex)
        {
            live.close();
            throw ex;
        }
    }

    /** @return why the live copy cannot be used, or null when it can. */
    private static String distrust(final RandomAccessFile durable, final ByteBuffer durableHeader,
        final boolean sealed, final Path livePath, final LivePlacement.Header header, final boolean growing)
        throws IOException
    {
        if (!Files.isRegularFile(livePath))
        {
            return "no live copy (first open since a reboot, or the file was closed cleanly)";
        }
        if (sealed)
        {
            return "the file was closed cleanly: the durable copy is whole";
        }
        if (durableHeader == null)
        {
            return "the durable file is shorter than its header";
        }
        final ByteBuffer liveHeader;
        final long liveLength;
        try (FileChannel live = FileChannel.open(livePath, StandardOpenOption.READ))
        {
            liveHeader = firstPage(live);
            liveLength = live.size();
        }
        if (liveHeader == null || !header.sameIdentity(durableHeader, liveHeader))
        {
            return "the live copy belongs to another file (its header names another)";
        }
        if (!growing && liveLength != durable.length())
        {
            return "the live copy is " + liveLength + " bytes, the file " + durable.length();
        }
        if (header.checkpointOf(durableHeader) > header.checkpointOf(liveHeader))
        {
            return "the live copy is older than the durable file's checkpoint";
        }
        return null;
    }

    /** Copies the durable file to the live path (kernel-side), under a temporary name renamed into place. */
    private static void restore(final Path durablePath, final RandomAccessFile durable, final Path livePath,
        final LivePlacement.Header header, final boolean sealed) throws IOException
    {
        Files.deleteIfExists(livePath);
        final long length = durable.length();
        final Path directory = livePath.toAbsolutePath().getParent();
        Preallocator.checkSpace(directory, length, durablePath);
        final Path temp = Leftovers.temporaryFor(livePath);
        Files.createFile(temp, FileCreation.permissions());
        boolean done = false;
        try
        {
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE))
            {
                final FileChannel in = durable.getChannel();
                for (long position = 0; position < length; )
                {
                    position += in.transferTo(position, length - position, out.position(position));
                }
                if (!sealed)
                {
                    out.write(ByteBuffer.wrap(LivePlacement.Header.noBootId()), header.bootId());
                }
            }
            Files.move(temp, livePath, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            done = true;
        }
        finally
        {
            if (!done)
            {
                Files.deleteIfExists(temp);
            }
        }
        Libc.dropCached(Descriptors.of(durable), 0, length);
    }

    private static ByteBuffer firstPage(final FileChannel channel) throws IOException
    {
        if (channel.size() < LivePlacement.Header.BYTES)
        {
            return null;
        }
        final ByteBuffer page = ByteBuffer.allocate(LivePlacement.Header.BYTES);
        while (page.hasRemaining())
        {
            if (channel.read(page, page.position()) < 0)
            {
                return null;
            }
        }
        return page.flip();
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
