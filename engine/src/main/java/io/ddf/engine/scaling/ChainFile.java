package io.ddf.engine.scaling;

import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.SegmentedFile;
import io.ddf.persistence.log.BootId;
import io.ddf.persistence.log.LogBinding;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.ddf.persistence.FilterFileException.Reason.CORRUPT;
import static io.ddf.persistence.FilterFileException.Reason.FOREIGN;
import static io.ddf.persistence.FilterFileException.Reason.UNSUPPORTED_VERSION;

/**
 * The file of a filter that grows: a header page, then one page-aligned segment per layer, appended as the filter
 * grows (format: {@code FORMAT-scaling.md} beside this class).
 *
 * <pre>
 * offset 0     header page (4096 bytes): magic "DDFSCALE", version, family, published layer count,
 *              the family's parameters and counters
 * offset 4096  segment 0: a 128-byte layer header (magic "DDFLAYER", index, layer kind, data bytes, item
 *              count, shape), then the layer's data, padded to whole pages
 * ...          segment i starts where segment i-1 ends
 * </pre>
 *
 * <p>Growth is crash-safe: a new segment is allocated, mapped and given its header, and only then is the layer
 * count in the header page raised, with an ordered store; a kill -9 before that store leaves a segment nobody
 * counts, cut off at the next open. Segments stay mapped at their addresses until the file is closed.
 */
public final class ChainFile implements AutoCloseable
{
    /** "DDFSCALE", little-endian. */
    static final long MAGIC = magic("DDFSCALE");
    /** "DDFLAYER", little-endian. */
    static final long LAYER_MAGIC = magic("DDFLAYER");
    /** The format this build writes and reads. */
    public static final int VERSION = 1;
    /** The header page's bytes. */
    static final int HEADER_BYTES = (int)SegmentedFile.PAGE;
    /** A segment's header bytes, before its data (so the data starts on a cache line). */
    static final int LAYER_HEADER_BYTES = 128;
    /** Most layers of one file. */
    public static final int MAX_LAYERS = 1024;

    /** Header page offsets. */
    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int FAMILY_OFFSET = 12;
    static final int LAYERS_OFFSET = 16;
    /** The family's parameters: 8 words from here. */
    static final int PARAMS_OFFSET = 64;
    /** The family's counters: 8 words from here. */
    static final int COUNTERS_OFFSET = 128;
    /** The closed-cleanly word (FORMAT-LOG.md), after the change log's fields at 192. */
    static final int CLEAN_OFFSET = 240;
    /** ASCII {@code SEAL}. */
    static final int CLEAN_VALUE = 0x4C414553;
    /** The table checksum stored with the closed-cleanly word ({@link ChainChecksum}; 0: none). */
    static final int CHECKSUM_OFFSET = 248;
    /** What a live copy is checked by (LivePlacement): magic, version and family, the parameters; FORMAT-LOG.md's
     *  fields; the closed-cleanly word. */
    private static final io.ddf.persistence.LivePlacement.Header LIVE_HEADER = new io.ddf.persistence.LivePlacement.Header(
        new int[] {MAGIC_OFFSET, LAYERS_OFFSET, PARAMS_OFFSET, COUNTERS_OFFSET},
        io.ddf.persistence.log.LogBinding.SCALING_FILE_OFFSET + io.ddf.persistence.LivePlacement.Header.CHECKPOINT_IN_BINDING,
        io.ddf.persistence.log.LogBinding.SCALING_FILE_OFFSET + io.ddf.persistence.LivePlacement.Header.BOOT_ID_IN_BINDING,
        CLEAN_OFFSET, CLEAN_VALUE);

    /** Segment header offsets. */
    static final int L_MAGIC = 0;
    static final int L_INDEX = 8;
    static final int L_KIND = 12;
    static final int L_DATA_BYTES = 16;
    /** The layer's item count. */
    static final int L_SIZE = 24;
    /** The layer's shape: {@link #SHAPE_WORDS} words from here (their meaning is the layer kind's). */
    static final int L_SHAPE = 32;
    /** Words of shape. */
    static final int SHAPE_WORDS = 12;

    private final SegmentedFile file;
    private final UnsafeBuffer header;
    /** Whether the closed-cleanly word was set at open (cleared and forced since). */
    private boolean sealedAtOpen;
    /** The layers the header published at open. */
    private int publishedAtOpen;
    /** Layers removed since the open (a cuckoo filter's compaction, replayed or not). */
    private int removedSinceOpen;
    /** Whether the file was written through a change log by a kernel since restarted (a power cut, FORMAT-LOG.md). */
    private boolean afterPowerCut;
    private final List<Segment> segments = new ArrayList<>();

    /**
     * One layer's segment, mapped.
     *
     * @param index   the layer's index.
     * @param offset  the segment's offset in the file.
     * @param bytes   the segment's bytes (a whole number of pages).
     * @param header  its layer header.
     * @param data    the address of its data.
     */
    public record Segment(int index, long offset, long bytes, UnsafeBuffer header, long data)
    {
        /** @return the layer kind. */
        public int kind()
        {
            return header.getInt(L_KIND);
        }

        /** @return the data's bytes. */
        public long dataBytes()
        {
            return header.getLong(L_DATA_BYTES);
        }

        /**
         * @param word a shape word's index, below {@link #SHAPE_WORDS}.
         * @return its value.
         */
        public long shape(final int word)
        {
            return header.getLong(L_SHAPE + word * Long.BYTES);
        }

        /** @return the layer's item count. */
        public long size()
        {
            return header.getLongVolatile(L_SIZE);
        }

        /** @param size the layer's item count, stored in order after the data it counts. */
        public void size(final long size)
        {
            header.putLongOrdered(L_SIZE, size);
        }
    }

    private ChainFile(final SegmentedFile file, final UnsafeBuffer header)
    {
        this.file = file;
        this.header = header;
    }

    /**
     * Creates a file with a header page, parameters and counters set by {@code initialise}, and no layer.
     *
     * @param path       the file; must not exist.
     * @param family     the family code.
     * @param initialise sets the family's parameters and adds the first layers.
     * @return the file, open.
     */
    public static ChainFile create(final Path path, final int family, final java.util.function.Consumer<ChainFile> initialise)
    {
        final ChainFile[] made = new ChainFile[1];
        final SegmentedFile file = SegmentedFile.create(path, HEADER_BYTES, LIVE_HEADER, f ->
        {
            final UnsafeBuffer header = new UnsafeBuffer(f.map(0, HEADER_BYTES), HEADER_BYTES);
            header.putInt(VERSION_OFFSET, VERSION);
            header.putInt(FAMILY_OFFSET, family);
            final ChainFile chain = new ChainFile(f, header);
            initialise.accept(chain);
            header.putLongOrdered(MAGIC_OFFSET, MAGIC); // last: a file with a magic is whole
            made[0] = chain;
        });
        file.prefaultForWrite(); // the first layers: their first adds then find their pages mapped
        return new ChainFile(file, made[0].header).adopt(made[0]);
    }

    private ChainFile adopt(final ChainFile other)
    {
        segments.addAll(other.segments);
        return this;
    }

    /**
     * Opens a file, checking its header page and every published segment, and cutting off what an interrupted
     * growth left after the last.
     *
     * @param path   the file.
     * @param family the family expected.
     * @return the file, open, its segments mapped.
     * @throws FilterFileException {@code FOREIGN} (not such a file, or another family), {@code UNSUPPORTED_VERSION},
     *                             {@code CORRUPT} (a segment inconsistent with the header), {@code LOCKED}.
     */
    public static ChainFile open(final Path path, final int family)
    {
        final SegmentedFile file = SegmentedFile.open(path, LIVE_HEADER);
        boolean done = false;
        try
        {
            if (file.length() < HEADER_BYTES)
            {
                throw new FilterFileException(FOREIGN, path, "too short (" + file.length() + " bytes) for a ddf " +
                    "scaling filter file");
            }
            final UnsafeBuffer header = new UnsafeBuffer(file.map(0, HEADER_BYTES), HEADER_BYTES);
            if (header.getLong(MAGIC_OFFSET) != MAGIC)
            {
                throw new FilterFileException(FOREIGN, path, "not a ddf scaling filter file (magic " +
                    Long.toHexString(header.getLong(MAGIC_OFFSET)) + ")");
            }
            if (header.getInt(VERSION_OFFSET) != VERSION)
            {
                throw new FilterFileException(UNSUPPORTED_VERSION, path, "format version " +
                    header.getInt(VERSION_OFFSET) + "; this build reads " + VERSION);
            }
            if (header.getInt(FAMILY_OFFSET) != family)
            {
                throw new FilterFileException(FOREIGN, path, "a scaling filter of family " +
                    header.getInt(FAMILY_OFFSET) + ", not " + family);
            }
            final ChainFile chain = new ChainFile(file, header);
            chain.checkSeal();
            chain.mapSegments();
            if (chain.sealedAtOpen)
            {
                // opened for writing: a crash from now on must not find a seal (and a checksum) older than the layers
                header.putIntVolatile(CLEAN_OFFSET, 0);
                chain.forceHeader();
            }
            done = true;
            return chain;
        }
        finally
        {
            if (!done)
            {
                file.close();
            }
        }
    }

    /**
     * @param path a file.
     * @return its family code when it is a ddf scaling filter file, else 0 (nothing is changed or locked).
     */
    public static int familyOf(final Path path)
    {
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(path))
        {
            final java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(16).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            while (buffer.hasRemaining() && channel.read(buffer) > 0)
            {
                // read the first 16 bytes
            }
            return buffer.position() == 16 && buffer.getLong(0) == MAGIC ? buffer.getInt(FAMILY_OFFSET) : 0;
        }
        catch (final java.io.IOException ex)
        {
            return 0;
        }
    }

    /**
     * A file closed cleanly carries a table checksum of its layers and counters: checked before anything else of it
     * is trusted (issue 31 item 9: refused by name and reason as {@code ddf verify} finds it).
     */
    private void checkSeal()
    {
        sealedAtOpen = header.getIntVolatile(CLEAN_OFFSET) == CLEAN_VALUE;
        final long stored = header.getLong(CHECKSUM_OFFSET);
        if (sealedAtOpen && stored != 0)
        {
            ChainChecksum.check(file.path(), stored);
        }
    }

    private void mapSegments()
    {
        final long published = header.getLongVolatile(LAYERS_OFFSET);
        publishedAtOpen = (int)Math.max(0, Math.min(published, MAX_LAYERS));
        // written through a change log by a kernel since restarted (a power cut): every layer grown since the last
        // checkpoint may be missing on the device, and the log's CHAIN_GROW / CF_GROW records make them again
        // (ScalingFilter.logTo checks that they did)
        final LogBinding binding = new LogBinding(header.addressOffset(), LogBinding.SCALING_FILE_OFFSET, () -> { });
        afterPowerCut = !sealedAtOpen && binding.logId() != 0 && !binding.bootId().equals(BootId.current());
        if (published < 0 || published > MAX_LAYERS)
        {
            throw corrupt("the header counts " + published + " layers");
        }
        long offset = HEADER_BYTES;
        for (int i = 0; i < published; i++)
        {
            // a power cut can keep the header page that published the newest layer but not the layer itself (the
            // growth fell between two syncs: the file ends where it would start, or its first page is zeros): what
            // it held was never synced, so the chain goes back to the layers before it, which the next add grows
            // again, rather than refusing the whole filter; anything else amiss is corruption
            final boolean newest = i > 0 && (i == published - 1 || afterPowerCut);
            if (offset + SegmentedFile.PAGE > file.length())
            {
                if (newest)
                {
                    header.putLongVolatile(LAYERS_OFFSET, i);
                    break;
                }
                throw corrupt("layer " + i + " would start at " + offset + ", past the file's end (" +
                    file.length() + ")");
            }
            final UnsafeBuffer first = new UnsafeBuffer(file.map(offset, SegmentedFile.PAGE), LAYER_HEADER_BYTES);
            final long dataBytes = first.getLong(L_DATA_BYTES);
            if (newest && first.getLong(L_MAGIC) == 0 && first.getInt(L_INDEX) == 0 && dataBytes == 0)
            {
                header.putLongVolatile(LAYERS_OFFSET, i);
                break;
            }
            if (first.getLong(L_MAGIC) != LAYER_MAGIC || first.getInt(L_INDEX) != i || dataBytes <= 0 ||
                dataBytes > file.length())
            {
                throw corrupt("layer " + i + " at offset " + offset + " has no valid layer header");
            }
            final long bytes = segmentBytes(dataBytes);
            if (offset + bytes > file.length())
            {
                throw corrupt("layer " + i + " of " + bytes + " bytes at offset " + offset + " runs past the file's " +
                    "end (" + file.length() + ")");
            }
            final long address = file.map(offset, bytes);
            segments.add(new Segment(i, offset, bytes, new UnsafeBuffer(address, LAYER_HEADER_BYTES),
                address + LAYER_HEADER_BYTES));
            offset += bytes;
        }
        if (file.length() > offset)
        {
            file.truncate(offset); // what a growth killed before its publication left
        }
    }

    private FilterFileException corrupt(final String message)
    {
        return new FilterFileException(CORRUPT, file.path(), message);
    }

    /**
     * @param dataBytes a layer's data bytes.
     * @return its segment's bytes: header and data, in whole pages.
     */
    static long segmentBytes(final long dataBytes)
    {
        final long page = SegmentedFile.PAGE;
        return (LAYER_HEADER_BYTES + dataBytes + page - 1) / page * page;
    }

    /**
     * Appends a layer: grows the file, maps the segment, writes its header, then publishes it.
     *
     * @param kind      the layer kind.
     * @param dataBytes its data's bytes.
     * @param shape     up to {@link #SHAPE_WORDS} words of shape, the layer kind's.
     * @param size      its initial item count.
     * @return the segment.
     * @throws FilterFileException {@code NO_SPACE} when the disk cannot hold it; the file is unchanged.
     */
    public Segment append(final int kind, final long dataBytes, final long[] shape, final long size)
    {
        if (shape.length > SHAPE_WORDS)
        {
            throw new IllegalArgumentException(shape.length + " words of shape; a layer header holds " + SHAPE_WORDS);
        }
        if (segments.size() >= MAX_LAYERS)
        {
            throw new IllegalStateException(file.path() + " has " + MAX_LAYERS + " layers, the most a file holds");
        }
        final long offset = segments.isEmpty() ? HEADER_BYTES :
            segments.get(segments.size() - 1).offset() + segments.get(segments.size() - 1).bytes();
        final long bytes = segmentBytes(dataBytes);
        file.grow(offset + bytes);
        final long address = file.map(offset, bytes);
        final UnsafeBuffer layerHeader = new UnsafeBuffer(address, LAYER_HEADER_BYTES);
        layerHeader.putInt(L_INDEX, segments.size());
        layerHeader.putInt(L_KIND, kind);
        layerHeader.putLong(L_DATA_BYTES, dataBytes);
        for (int i = 0; i < shape.length; i++)
        {
            layerHeader.putLong(L_SHAPE + i * Long.BYTES, shape[i]);
        }
        layerHeader.putLong(L_SIZE, size);
        layerHeader.putLongOrdered(L_MAGIC, LAYER_MAGIC);
        final Segment segment = new Segment(segments.size(), offset, bytes, layerHeader, address + LAYER_HEADER_BYTES);
        segments.add(segment);
        header.putLongOrdered(LAYERS_OFFSET, segments.size()); // the commit point
        return segment;
    }

    /**
     * Drops the newest layer (a cuckoo filter's emptied sub-filter): unpublished first, then cut from the file.
     */
    public void removeLast()
    {
        final Segment last = segments.remove(segments.size() - 1);
        removedSinceOpen++;
        header.putLongOrdered(LAYERS_OFFSET, segments.size());
        file.truncate(last.offset());
    }

    /** @return the layers' segments. */
    int segmentCount()
    {
        return segments.size();
    }

    /** @return the segments, oldest first. */
    public List<Segment> segments()
    {
        return List.copyOf(segments);
    }

    /**
     * @param word a parameter word's index, 0 to 7.
     * @return its value.
     */
    public long param(final int word)
    {
        return header.getLong(PARAMS_OFFSET + word * Long.BYTES);
    }

    /**
     * @param word  a parameter word's index, 0 to 7.
     * @param value its value (parameters are written at creation only).
     */
    public void param(final int word, final long value)
    {
        header.putLong(PARAMS_OFFSET + word * Long.BYTES, value);
    }

    /**
     * @param word a counter's index, 0 to 7.
     * @return its value.
     */
    public long counter(final int word)
    {
        return header.getLongVolatile(COUNTERS_OFFSET + word * Long.BYTES);
    }

    /**
     * @param word  a counter's index, 0 to 7.
     * @param value its value, stored in order.
     */
    public void counter(final int word, final long value)
    {
        header.putLongOrdered(COUNTERS_OFFSET + word * Long.BYTES, value);
    }

    /** @return the file's path. */
    public Path path()
    {
        return file.path();
    }

    /** @return the file's bytes. */
    public long fileBytes()
    {
        return file.length();
    }

    /** Forces the file to the device. */
    public void flush()
    {
        file.force();
    }

    /**
     * @return layers the header published when the file was opened that are neither mapped now nor were removed
     *         since (lost to a power cut, and not made again by the change log).
     */
    public int layersMissing()
    {
        return Math.max(0, publishedAtOpen - removedSinceOpen - segments.size());
    }

    /**
     * @return whether the file was written through a change log by a kernel since restarted: its pages are of any
     *         moment since its last checkpoint, and only the log's replay makes them whole.
     */
    public boolean afterPowerCut()
    {
        return afterPowerCut;
    }

    /** @return the address of the mapped header page (the change log's fields live there, FORMAT-LOG.md). */
    public long headerAddress()
    {
        return header.addressOffset();
    }

    /** Forces the header page alone (one ranged msync, or for a live copy its write into the file). */
    public void forceHeader()
    {
        file.force(header.addressOffset(), HEADER_BYTES);
    }

    /** @return whether the closed-cleanly word was set at open (its checksum matched: the file was whole). */
    public boolean closedCleanly()
    {
        return sealedAtOpen;
    }

    /**
     * A clean close's seal: every segment forced, then the table checksum and the closed-cleanly word stored and the
     * header page forced. The caller holds off every change.
     */
    public void seal()
    {
        flush();
        header.putLong(CHECKSUM_OFFSET, ChainChecksum.compute(file.path()));
        header.putIntVolatile(CLEAN_OFFSET, CLEAN_VALUE);
        forceHeader();
    }

    /** Unmaps and releases the file. */
    @Override
    public void close()
    {
        file.close();
    }

    private static long magic(final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        long value = 0;
        for (int i = 7; i >= 0; i--)
        {
            value = value << 8 | (bytes[i] & 0xFF);
        }
        return value;
    }
}
