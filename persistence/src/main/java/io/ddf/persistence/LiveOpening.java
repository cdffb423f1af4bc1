package io.ddf.persistence;

import io.ddf.persistence.platform.Descriptors;
import io.ddf.persistence.platform.Libc;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Opening a live-placed file ({@link LivePlacement}): maps the live copy when it still belongs to the durable file,
 * else copies the durable file to the live path first. A copy made from the durable file has its boot id cleared
 * (unless the file was closed cleanly), so that the change log's open replays from the checkpoint position instead
 * of taking the restart for one where the page cache survived (FORMAT-LOG.md: SAME_BOOT): the durable file holds the
 * table as of its last checkpoint only.
 */
final class LiveOpening
{
    private LiveOpening()
    {
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
        final LiveHeader header, final boolean growing) throws IOException
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
        final boolean sealed, final Path livePath, final LiveHeader header, final boolean growing) throws IOException
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
        final LiveHeader header, final boolean sealed) throws IOException
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
                    out.write(ByteBuffer.wrap(LiveHeader.noBootId()), header.bootId());
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
        if (channel.size() < LiveHeader.BYTES)
        {
            return null;
        }
        final ByteBuffer page = ByteBuffer.allocate(LiveHeader.BYTES);
        while (page.hasRemaining())
        {
            if (channel.read(page, page.position()) < 0)
            {
                return null;
            }
        }
        return page.flip();
    }
}
