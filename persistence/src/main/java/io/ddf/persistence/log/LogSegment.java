package io.ddf.persistence.log;

import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.platform.RawMemory;
import io.ddf.persistence.SegmentedFile;
import io.ddf.persistence.platform.MappingAdvice;
import net.openhft.hashing.LongHashFunction;
import net.openhft.posix.MSyncFlag;
import net.openhft.posix.PosixAPI;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.util.UUID;

import static io.ddf.persistence.FilterFileException.Reason.CORRUPT;
import static io.ddf.persistence.FilterFileException.Reason.IO;
import static io.ddf.persistence.log.LogFormat.HEADER_BYTES;

/**
 * One segment file of a change log (FORMAT-LOG.md): a header page, then record bytes, the whole file mapped
 * read-write and shared, its blocks allocated at creation ({@link SegmentedFile}: a full disk fails the creation, not a
 * store). Immutable apart from its records.
 */
final class LogSegment
{
    private final SegmentedFile file;
    /** Opened at the first {@link #write}: the descriptor frames are copied through ({@code pwrite}). */
    private FileChannel writes;
    private final long start;
    private final long capacity;
    private final long address;
    /** Record bytes mapped (the capacity, or less in a file a clean close shortened). */
    private final long mapped;
    private final long logId;
    private final long nextNumber;

    private LogSegment(final SegmentedFile file, final long start, final long capacity, final long address,
        final long mapped, final long logId, final long nextNumber)
    {
        this.file = file;
        this.start = start;
        this.capacity = capacity;
        this.address = address;
        this.mapped = mapped;
        this.logId = logId;
        this.nextNumber = nextNumber;
    }

    /**
     * Creates a segment (under a temporary name, renamed into place, the directory forced).
     *
     * @param directory  the log's directory.
     * @param start      its first position.
     * @param capacity   its record bytes.
     * @param logId      the log's id.
     * @param nextNumber the next filter number now.
     * @param created    the creation time to record.
     * @return the segment, mapped.
     * @throws FilterFileException NO_SPACE when the disk is full, IO otherwise.
     */
    static LogSegment create(final Path directory, final long start, final long capacity, final long logId,
        final long nextNumber, final long created)
    {
        final Path path = directory.resolve(LogFormat.fileName(start));
        final long[] mappedAt = new long[1];
        final SegmentedFile file = SegmentedFile.create(path, HEADER_BYTES + capacity, f ->
        {
            final long at = f.map(0, HEADER_BYTES + capacity, MappingAdvice.Pages.SMALL);
            mappedAt[0] = at;
            writeHeader(at, start, capacity, logId, nextNumber, created, BootId.current());
        });
        return new LogSegment(file, start, capacity, mappedAt[0] + HEADER_BYTES, capacity, logId, nextNumber);
    }

    /** Writes a segment header at {@code at} (golden files, creation). */
    static void writeHeader(final long at, final long start, final long capacity, final long logId,
        final long nextNumber, final long created, final UUID bootId)
    {
        RawMemory.putLongPlain(at + LogFormat.H_MAGIC, LogFormat.MAGIC);
        RawMemory.putLongPlain(at + LogFormat.H_MAJOR, (long)LogFormat.MINOR_VERSION << 32 | LogFormat.MAJOR_VERSION);
        RawMemory.putLongPlain(at + LogFormat.H_HEADER_BYTES, (long)LogFormat.UNIT << 32 | HEADER_BYTES);
        RawMemory.putLongPlain(at + LogFormat.H_LOG_ID, logId);
        RawMemory.putLongPlain(at + LogFormat.H_FIRST_POSITION, start);
        RawMemory.putLongPlain(at + LogFormat.H_CAPACITY, capacity);
        RawMemory.putLongPlain(at + LogFormat.H_CREATED, created);
        RawMemory.putLongPlain(at + LogFormat.H_NEXT_NUMBER, nextNumber);
        RawMemory.putLongPlain(at + LogFormat.H_BOOT_ID, bootId.getMostSignificantBits());
        RawMemory.putLongPlain(at + LogFormat.H_BOOT_ID + 8, bootId.getLeastSignificantBits());
        RawMemory.putLongPlain(at + LogFormat.H_CHECKSUM, headerChecksum(at));
    }

    private static long headerChecksum(final long at)
    {
        return LongHashFunction.xx3().hashMemory(at, LogFormat.H_CHECKSUM);
    }

    /**
     * Opens a segment file and checks its header.
     *
     * @param path  the file.
     * @param start the first position its name says.
     * @return the segment, mapped.
     * @throws FilterFileException CORRUPT naming the file and what is wrong.
     */
    static LogSegment open(final Path path, final long start)
    {
        final SegmentedFile file = SegmentedFile.open(path);
        try
        {
            final long length = file.length();
            if (length < HEADER_BYTES || length % SegmentedFile.PAGE != 0)
            {
                throw new FilterFileException(CORRUPT, path, "a change log segment of " + length + " bytes: not " +
                    "a header page and whole pages of records");
            }
            final long at = file.map(0, length, MappingAdvice.Pages.SMALL);
            final String wrong = headerProblem(at, start);
            if (wrong != null)
            {
                throw new FilterFileException(CORRUPT, path, "not a valid change log segment: " + wrong);
            }
            final long capacity = RawMemory.getLongPlain(at + LogFormat.H_CAPACITY);
            return new LogSegment(file, start, capacity, at + HEADER_BYTES, Math.min(capacity, length - HEADER_BYTES),
                RawMemory.getLongPlain(at + LogFormat.H_LOG_ID), RawMemory.getLongPlain(at + LogFormat.H_NEXT_NUMBER));
        }
        catch (final RuntimeException e)
        {
            file.close();
            throw e;
        }
    }

    private static String headerProblem(final long at, final long start)
    {
        if (RawMemory.getLongPlain(at + LogFormat.H_MAGIC) != LogFormat.MAGIC)
        {
            return "its magic is not DDFCHLOG";
        }
        final int major = (int)RawMemory.getLongPlain(at + LogFormat.H_MAJOR);
        if (major != LogFormat.MAJOR_VERSION)
        {
            return "format version " + major + ", this build reads " + LogFormat.MAJOR_VERSION;
        }
        if (RawMemory.getLongPlain(at + LogFormat.H_CHECKSUM) != headerChecksum(at))
        {
            return "its header checksum does not match";
        }
        final long header = RawMemory.getLongPlain(at + LogFormat.H_HEADER_BYTES);
        if ((int)header != HEADER_BYTES || (int)(header >>> 32) != LogFormat.UNIT)
        {
            return "header length or record unit not 4096 and 32";
        }
        if (RawMemory.getLongPlain(at + LogFormat.H_FIRST_POSITION) != start)
        {
            return "its first position " + RawMemory.getLongPlain(at + LogFormat.H_FIRST_POSITION) +
                " is not the one its name says, " + start;
        }
        final long capacity = RawMemory.getLongPlain(at + LogFormat.H_CAPACITY);
        if (capacity <= 0 || capacity % SegmentedFile.PAGE != 0)
        {
            return "capacity " + capacity + " is not a positive multiple of 4096";
        }
        if (RawMemory.getLongPlain(at + LogFormat.H_LOG_ID) == 0)
        {
            return "log id 0";
        }
        return null;
    }

    /**
     * Forces the record bytes of positions [from, to) (clipped to this segment) to the device: one ranged msync
     * (Linux: an fdatasync of the range).
     */
    void force(final long from, final long to)
    {
        final long lo = Math.max(from, start) - start;
        final long hi = Math.min(to, start + mapped) - start;
        if (hi <= lo)
        {
            return;
        }
        final long first = (address + lo) & -SegmentedFile.PAGE;
        final long end = address + hi;
        if (PosixAPI.posix().msync(first, end - first, MSyncFlag.MS_SYNC) != 0)
        {
            throw new FilterFileException(IO, file.path(), "msync failed: " + PosixAPI.posix().lastErrorStr());
        }
    }

    /**
     * Writes frames' bytes of positions from {@code position} ({@link StagingRing#copyTo}): a {@code pwrite} into the
     * file, which this segment's mapping then reads.
     *
     * @param src      the bytes, within this segment's positions.
     * @param position the position of the first.
     */
    synchronized void write(final ByteBuffer src, final long position)
    {
        if (position < start || position + src.remaining() > start + mapped)
        {
            throw new IllegalArgumentException("positions [" + position + ", +" + src.remaining() + ") are not in " +
                "segment " + file.path());
        }
        try
        {
            if (writes == null)
            {
                writes = FileChannel.open(file.path(), StandardOpenOption.WRITE);
            }
            long at = HEADER_BYTES + position - start;
            while (src.hasRemaining())
            {
                at += writes.write(src, at);
            }
        }
        catch (final IOException e)
        {
            throw new FilterFileException(IO, file.path(), "write failed: " + e, e);
        }
    }

    private synchronized void closeWrites()
    {
        if (writes != null)
        {
            try
            {
                writes.close();
            }
            catch (final IOException e)
            {
                // the mapping's close below reports what matters
            }
            writes = null;
        }
    }

    /** Shortens the file to the pages that hold positions before {@code end} (a clean close), then closes it. */
    void closeAt(final long end)
    {
        final long used = Math.max(0, Math.min(end - start, mapped));
        final long length = HEADER_BYTES + (used + SegmentedFile.PAGE - 1) / SegmentedFile.PAGE * SegmentedFile.PAGE;
        closeWrites();
        try
        {
            if (length < HEADER_BYTES + mapped)
            {
                file.truncate(length);
            }
        }
        finally
        {
            file.close();
        }
    }

    /** Unmaps and closes. */
    void close()
    {
        closeWrites();
        file.close();
    }

    /** @return the file. */
    Path path()
    {
        return file.path();
    }

    /** @return its first position. */
    long start()
    {
        return start;
    }

    /** @return the position after its last mapped record byte. */
    long limit()
    {
        return start + mapped;
    }

    /** @return the address of position {@link #start()}. */
    long address()
    {
        return address;
    }

    /** @return its record bytes as created. */
    long capacity()
    {
        return capacity;
    }

    /** @return the bytes of the file. */
    long fileBytes()
    {
        return file.length();
    }

    /** @return the log id its header holds. */
    long logId()
    {
        return logId;
    }

    /** @return the next filter number its header holds. */
    long nextNumber()
    {
        return nextNumber;
    }
}
