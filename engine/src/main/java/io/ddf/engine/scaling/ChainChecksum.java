package io.ddf.engine.scaling;

import io.ddf.persistence.FilterFileException;
import net.openhft.hashing.LongHashFunction;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The table checksum of a scaling file (FORMAT-scaling.md, "Table checksum"): XXH3-64 (seed 0) of the little-endian
 * int64 list {@code [xxh3(header bytes 0-191), file length, xxh3(chunk 0), xxh3(chunk 1), ...]}, the chunks 16 MiB
 * pieces of the file from byte 4096 (its layers) to its end, the last shorter. Read through the file (the page cache
 * the mappings share), so the same code checks an open file, a file being closed and one {@code ddf verify} reads
 * without a lock. The header's bytes from 192 (the change log's fields, the closed-cleanly word, this checksum) are
 * not covered: checkpoints and opens write them.
 */
final class ChainChecksum
{
    /** Header bytes covered: magic to the family's counters. */
    static final int HEADER_COVERED = 192;
    private static final int CHUNK = 1 << 24;
    private static final LongHashFunction XX3 = LongHashFunction.xx3();

    private ChainChecksum()
    {
    }

    /**
     * @param path the file.
     * @return its checksum now.
     * @throws FilterFileException {@code IO} when it cannot be read.
     */
    static long compute(final Path path)
    {
        try (FileChannel channel = FileChannel.open(path))
        {
            final long length = channel.size();
            final ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
            final long chunks = Math.max(0, (length - ChainFile.HEADER_BYTES + CHUNK - 1) / CHUNK);
            final ByteBuffer list = ByteBuffer.allocate((int)(2 + chunks) * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            read(channel, chunk, 0, HEADER_COVERED);
            list.putLong(XX3.hashBytes(chunk));
            list.putLong(length);
            for (long at = ChainFile.HEADER_BYTES; at < length; at += CHUNK)
            {
                read(channel, chunk, at, (int)Math.min(CHUNK, length - at));
                list.putLong(XX3.hashBytes(chunk));
            }
            return XX3.hashBytes(list.flip());
        }
        catch (final IOException e)
        {
            throw new FilterFileException(FilterFileException.Reason.IO, path, "cannot read it to check its table " +
                "checksum: " + e, e);
        }
    }

    private static void read(final FileChannel channel, final ByteBuffer into, final long at, final int bytes)
        throws IOException
    {
        into.clear().limit(bytes);
        while (into.hasRemaining())
        {
            if (channel.read(into, at + into.position()) < 0)
            {
                throw new IOException("the file ends at " + (at + into.position()));
            }
        }
        into.flip();
    }

    /**
     * @param path   the file.
     * @param stored the checksum its header holds.
     * @throws FilterFileException {@code CORRUPT} "table checksum mismatch", naming the file, when they differ.
     */
    static void check(final Path path, final long stored)
    {
        final long now = compute(path);
        if (now != stored)
        {
            throw new FilterFileException(FilterFileException.Reason.CORRUPT, path, "table checksum mismatch: the " +
                "file was closed cleanly with checksum 0x" + Long.toHexString(stored) + " but its layers and " +
                "counters no longer match it (0x" + Long.toHexString(now) + ")");
        }
    }
}
