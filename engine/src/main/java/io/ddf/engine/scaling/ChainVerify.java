package io.ddf.engine.scaling;

import io.ddf.persistence.FilterFileException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code ddf verify} of a scaling file ({@code .ddfs}), without opening it for writing (no lock, not a byte changed):
 * its header, then the table checksum of a file closed cleanly, or its layers' headers of any other; what
 * {@link ChainFile#open} refuses, this refuses with the same reason.
 */
public final class ChainVerify
{
    private ChainVerify()
    {
    }

    /**
     * @param path a scaling file.
     * @return one line per check, in order.
     * @throws FilterFileException naming the file and what is wrong ({@code CORRUPT}, {@code FOREIGN}, ...).
     */
    public static Map<String, String> verify(final Path path)
    {
        final Map<String, String> report = new LinkedHashMap<>();
        try (FileChannel channel = FileChannel.open(path))
        {
            final long length = channel.size();
            final ByteBuffer header = page(channel, 0, ChainFile.HEADER_BYTES, path);
            final int family = header.getInt(ChainFile.FAMILY_OFFSET);
            if (header.getLong(ChainFile.MAGIC_OFFSET) != ChainFile.MAGIC)
            {
                throw new FilterFileException(FilterFileException.Reason.FOREIGN, path, "not a ddf scaling filter file");
            }
            if (header.getInt(ChainFile.VERSION_OFFSET) != ChainFile.VERSION)
            {
                throw new FilterFileException(FilterFileException.Reason.UNSUPPORTED_VERSION, path, "format version " +
                    header.getInt(ChainFile.VERSION_OFFSET) + "; this build reads " + ChainFile.VERSION);
            }
            final long layers = header.getLong(ChainFile.LAYERS_OFFSET);
            report.put("file", path.toString());
            report.put("format", "scaling " + ChainFile.VERSION);
            report.put("kind", family == RedisCuckoo.FAMILY ? "cuckoo (RedisBloom's CF)" :
                family == BloomChain.DDF_FAMILY ? "scaling bloom (ddf's layers)" : "scaling bloom (RedisBloom's layers)");
            report.put("layers", Long.toString(layers));
            report.put("length", length + " bytes");
            final long stored = header.getLong(ChainFile.CHECKSUM_OFFSET);
            if (header.getInt(ChainFile.CLEAN_OFFSET) == ChainFile.CLEAN_VALUE && stored != 0)
            {
                report.put("sealed", "yes (closed cleanly)");
                ChainChecksum.check(path, stored);
                report.put("table checksum", "ok");
            }
            else
            {
                report.put("sealed", "no (not closed cleanly: a crash, or open in a process now)");
                report.put("table checksum", "none (written at a clean close)");
            }
            long offset = ChainFile.HEADER_BYTES;
            for (int i = 0; i < layers; i++)
            {
                final ByteBuffer layer = offset + ChainFile.LAYER_HEADER_BYTES <= length ?
                    page(channel, offset, ChainFile.LAYER_HEADER_BYTES, path) : null;
                final long dataBytes = layer == null ? -1 : layer.getLong(ChainFile.L_DATA_BYTES);
                if (layer == null || layer.getLong(ChainFile.L_MAGIC) != ChainFile.LAYER_MAGIC ||
                    layer.getInt(ChainFile.L_INDEX) != i || dataBytes <= 0 ||
                    offset + ChainFile.segmentBytes(dataBytes) > length)
                {
                    throw new FilterFileException(FilterFileException.Reason.CORRUPT, path, "layer " + i +
                        " at offset " + offset + " has no valid layer header within the file's " + length + " bytes");
                }
                offset += ChainFile.segmentBytes(dataBytes);
            }
            report.put("structure", "ok (" + layers + " layer headers)");
        }
        catch (final IOException e)
        {
            throw new FilterFileException(FilterFileException.Reason.IO, path, "cannot read it: " + e, e);
        }
        return report;
    }

    private static ByteBuffer page(final FileChannel channel, final long at, final int bytes, final Path path)
        throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        while (buffer.hasRemaining())
        {
            if (channel.read(buffer, at + buffer.position()) < 0)
            {
                throw new FilterFileException(FilterFileException.Reason.CORRUPT, path, "ends at " +
                    (at + buffer.position()) + ", inside its " + (at == 0 ? "header" : "layer header at " + at));
            }
        }
        return buffer.flip();
    }
}
