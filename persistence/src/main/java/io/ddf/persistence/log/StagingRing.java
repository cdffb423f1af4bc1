package io.ddf.persistence.log;

import com.sun.jna.Pointer;
import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.Preallocator;
import io.ddf.persistence.platform.Descriptors;
import io.ddf.persistence.platform.RawMemory;
import net.openhft.hashing.LongHashFunction;
import net.openhft.posix.MSyncFlag;
import net.openhft.posix.PosixAPI;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;

import static io.ddf.persistence.FilterFileException.Reason.IO;

/**
 * The change log's staging ring (FORMAT-LOG.md, "The staging ring"): the file {@code staging.ddfring} of the log's
 * directory, a header page and then {@code bytes} (a power of two) of frames, the frame of position p at
 * {@code p mod bytes}, word by word (a frame may wrap round the ring's end). Appenders store frames here, where the
 * pages stay mapped and written from one lap to the next; the log's thread copies the complete prefix into the
 * segments with {@code pwrite} ({@link #copyTo}).
 *
 * <p>Why not store into the segments' mapping, as the log did: on this project's machine (a PVM guest, its page tables
 * shadowed by the hypervisor) a page's first write through a mapping costs ~13 µs, a page written back by a force
 * costs as much again, and a 32-byte frame is 1/128 of a page: 100–120 ns of the log's thread per frame, a quarter of
 * the raw feed's CPU (bench/results/daemon/feed-profile-2026-11-29.md). A {@code pwrite} of the same page from here
 * costs 1–2 µs and maps nothing, and the ring's pages, rewritten every lap, take no fault between the kernel's
 * write-backs ({@code bench/scripts/StagingProbe.java}).
 *
 * <p>Why a file and not the heap: a frame stored here is in the page cache when its append returns, so a
 * {@code kill -9} before the copy loses nothing: the next open copies the ring's valid frames that the segments lack
 * ({@link #validLength}); after a reboot too, when the kernel wrote the ring's pages back before it stopped (as it
 * does any page: the ring is never forced, so a power cut may have kept any of its pages or none). The header's boot
 * id is informative.
 */
final class StagingRing implements AutoCloseable
{
    /** The ring's file in the log's directory. */
    static final String FILE = "staging.ddfring";
    /** ASCII {@code DDFSTAGE}, little-endian. */
    static final long MAGIC = 0x4547415453464444L;
    /** The header page; frames follow it. */
    static final int HEADER_BYTES = 4096;
    /** The ring's bytes unless set: 4 MiB, 131,072 one-unit frames. */
    static final long DEFAULT_BYTES = 4L << 20;

    private static final int H_MAGIC = 0;
    private static final int H_LOG_ID = 8;
    private static final int H_BYTES = 16;
    private static final int H_BOOT_ID = 24;
    private static final int H_CHECKSUM = 40;

    private static final int PROT_READ_WRITE = 3;
    private static final int MAP_SHARED = 1;

    private final Path path;
    private final RandomAccessFile file;
    private final FileChannel channel;
    /** The mapping's first byte (the header's). */
    private final long mapped;
    /** The address of ring offset 0. */
    private final long base;
    private final long mask;
    private final long bytes;
    /** Whether the frames there now were written by this log (its header intact and naming it). */
    private final boolean recoverable;

    private StagingRing(final Path path, final RandomAccessFile file, final long mapped, final long bytes,
        final boolean recoverable)
    {
        this.path = path;
        this.file = file;
        this.channel = file.getChannel();
        this.mapped = mapped;
        this.base = mapped + HEADER_BYTES;
        this.mask = bytes - 1;
        this.bytes = bytes;
        this.recoverable = recoverable;
    }

    /**
     * Opens the ring of a log directory, making it when missing. Its frames count for recovery only when its header is
     * intact, this log's and of this size.
     *
     * @param directory the log's directory.
     * @param logId     the log's id.
     * @param bytes     the ring's bytes, a power of two, at least 4096 (as {@link LogOptions} checks).
     * @return the ring, mapped.
     * @throws FilterFileException IO when the file cannot be made or mapped.
     */
    static StagingRing open(final Path directory, final long logId, final long bytes)
    {
        final Path path = directory.resolve(FILE);
        RandomAccessFile file = null;
        try
        {
            file = new RandomAccessFile(path.toFile(), "rw");
            final FileChannel channel = file.getChannel();
            final long length = HEADER_BYTES + bytes;
            // as private as the segments: it holds the same records
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
            if (channel.size() != length)
            {
                channel.truncate(0);
                channel.write(ByteBuffer.allocate(1), length - 1); // its blocks are reserved by reset()
            }
            final long at = PosixAPI.posix().mmap(0, length, PROT_READ_WRITE, MAP_SHARED, Descriptors.of(file), 0);
            if (at == -1 || at == 0)
            {
                throw new IOException("mmap failed: " + PosixAPI.posix().lastErrorStr());
            }
            return new StagingRing(path, file, at, bytes, headerMatches(at, logId, bytes));
        }
        catch (final IOException e)
        {
            closeQuietly(file);
            throw new FilterFileException(IO, path, "cannot open the change log's staging ring: " + e, e);
        }
    }

    private static boolean headerMatches(final long at, final long logId, final long bytes)
    {
        return RawMemory.getLongPlain(at + H_MAGIC) == MAGIC && RawMemory.getLongPlain(at + H_LOG_ID) == logId &&
            RawMemory.getLongPlain(at + H_BYTES) == bytes &&
            RawMemory.getLongPlain(at + H_CHECKSUM) == LongHashFunction.xx3().hashMemory(at, H_CHECKSUM);
    }

    /**
     * Starts the ring afresh for appends from now on: its frames zeroed (a frame left from before the open, of a
     * position the log will write again after a cut, must never pass for the new one), its header this log's, and
     * both forced (so that no power cut brings the frames before back). Called once recovery has taken what it could.
     *
     * @param logId the log's id.
     */
    void reset(final long logId)
    {
        try
        {
            // zeros without touching a page: the file's record pages dropped, then their blocks reserved again, so
            // that no store into the mapping ever needs a block (a full disk fails here, never an append: SIGBUS)
            channel.truncate(HEADER_BYTES);
            Preallocator.allocate(file, 0, HEADER_BYTES + bytes, path, path.getParent());
        }
        catch (final IOException e)
        {
            throw new FilterFileException(IO, path, "cannot reset the change log's staging ring: " + e, e);
        }
        final long at = mapped;
        final UUID boot = BootId.current();
        RawMemory.putLongPlain(at + H_MAGIC, MAGIC);
        RawMemory.putLongPlain(at + H_LOG_ID, logId);
        RawMemory.putLongPlain(at + H_BYTES, bytes);
        RawMemory.putLongPlain(at + H_BOOT_ID, boot.getMostSignificantBits());
        RawMemory.putLongPlain(at + H_BOOT_ID + 8, boot.getLeastSignificantBits());
        RawMemory.putLongPlain(at + H_CHECKSUM, LongHashFunction.xx3().hashMemory(at, H_CHECKSUM));
        if (PosixAPI.posix().msync(at, HEADER_BYTES, MSyncFlag.MS_SYNC) != 0)
        {
            throw new FilterFileException(IO, path, "msync failed: " + PosixAPI.posix().lastErrorStr());
        }
        try
        {
            channel.force(true);
        }
        catch (final IOException e)
        {
            throw new FilterFileException(IO, path, "cannot force the change log's staging ring: " + e, e);
        }
    }

    /** @return the ring's bytes. */
    long bytes()
    {
        return bytes;
    }

    /**
     * @param position a frame's position.
     * @param word     its word, 0..7.
     * @return the address of that word in the ring.
     */
    long word(final long position, final int word)
    {
        return base + (position + ((long)word << 3) & mask);
    }

    /**
     * Whether a complete frame of {@code position} is in the ring: its check, read with acquire, matches its words
     * and binds the position (a frame of the lap before, or one being written, does not).
     *
     * @param position a position.
     * @return the frame's bytes, or 0.
     */
    int validLength(final long position)
    {
        final int units = LogFormat.units(RawMemory.getLongVolatile(word(position, 0)));
        if (units > LogFormat.MAX_UNITS)
        {
            return 0;
        }
        final int words = units * 4 - 1;
        final long stored = RawMemory.getLongVolatile(word(position, words));
        final long w0 = RawMemory.getLongPlain(word(position, 0));
        if (stored == 0 || !LogFormat.known(w0) || LogFormat.units(w0) != units)
        {
            return 0;
        }
        final long check = units == 1
            ? LogFormat.check1(w0, RawMemory.getLongPlain(word(position, 1)), RawMemory.getLongPlain(word(position, 2)),
                position)
            : LogFormat.check2(w0, RawMemory.getLongPlain(word(position, 1)), RawMemory.getLongPlain(word(position, 2)),
                RawMemory.getLongPlain(word(position, 3)), RawMemory.getLongPlain(word(position, 4)),
                RawMemory.getLongPlain(word(position, 5)), RawMemory.getLongPlain(word(position, 6)), position);
        return stored == check ? units * LogFormat.UNIT : 0;
    }

    /** @return whether the ring's frames may be recovered (its header intact and this log's). */
    boolean recoverable()
    {
        return recoverable;
    }

    /**
     * Writes the ring's bytes of positions [from, to) into a segment ({@code pwrite}, in at most two pieces where the
     * range wraps round the ring's end).
     *
     * @param segment the segment holding the positions.
     * @param from    the first position.
     * @param to      the position after the last, at most {@link #bytes()} after {@code from}.
     * @throws FilterFileException IO when the write fails.
     */
    void copyTo(final LogSegment segment, final long from, final long to)
    {
        long p = from;
        while (p < to)
        {
            final int offset = (int)(p & mask);
            final int length = (int)Math.min(to - p, bytes - offset);
            segment.write(new Pointer(base + offset).getByteBuffer(0, length), p);
            p += length;
        }
    }

    /**
     * After a clean close, when every frame is in the segments: the header no longer matches, so the next open takes
     * nothing from the ring (a segment damaged later is cut as the format says, not mended from here).
     */
    void retire()
    {
        RawMemory.putLongRelease(mapped + H_MAGIC, 0);
    }

    /** Unmaps the ring and closes its file (no frame may be appended from now on). */
    @Override
    public void close()
    {
        PosixAPI.posix().munmap(mapped, HEADER_BYTES + bytes);
        closeQuietly(file);
    }

    private static void closeQuietly(final RandomAccessFile file)
    {
        if (file != null)
        {
            try
            {
                file.close();
            }
            catch (final IOException e)
            {
                // nothing more to release
            }
        }
    }
}
