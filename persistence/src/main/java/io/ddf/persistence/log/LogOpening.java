package io.ddf.persistence.log;

import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.platform.RawMemory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

import static io.ddf.persistence.FilterFileException.Reason.CORRUPT;
import static io.ddf.persistence.log.LogFormat.UNIT;

/**
 * Opening and closing a change log's segments (FORMAT-LOG.md, "The torn tail, cut at open"): reads the frames in
 * position order to the first that is not valid, deletes the segments after it, and starts a new segment there.
 */
final class LogOpening
{
    private static final System.Logger LOG = System.getLogger("io.ddf.persistence.log");
    /** How far past the end the open looks for valid frames to report (a power cut's out-of-order pages). */
    private static final long LOOK_PAST_END = 1 << 20;

    private LogOpening()
    {
    }

    static ChangeLog finish(final Path directory, final FileChannel channel, final FileLock lock,
        final LogOptions options, final List<LogSegment> found, final long started)
    {
        if (found.isEmpty())
        {
            final long logId = newLogId();
            final LogSegment first = LogSegment.create(directory, 0, options.segmentBytes(), logId, 1,
                System.currentTimeMillis());
            final StagingRing ring = StagingRing.open(directory, logId, options.stagingBytes());
            try
            {
                ring.reset(logId);
            }
            catch (final RuntimeException e)
            {
                ring.close(); // a full disk: its blocks could not be reserved
                throw e;
            }
            return ChangeLog.opened(directory, channel, lock, options, logId, ring, List.of(first), 0, 1,
                new LogOpenReport(true, 0, 0, 0, 0, 0, 0, 0, System.nanoTime() - started));
        }
        final long logId = found.get(found.size() - 1).logId();
        long nextNumber = 1;
        for (final LogSegment s : found)
        {
            if (s.logId() != logId)
            {
                throw new FilterFileException(CORRUPT, s.path(), "a segment of another change log (id " +
                    Long.toHexString(s.logId()) + ", the newest segment's is " + Long.toHexString(logId) + ")");
            }
            nextNumber = Math.max(nextNumber, s.nextNumber());
        }
        final StagingRing ring = StagingRing.open(directory, logId, options.stagingBytes());
        try
        {
            return finishWith(directory, channel, lock, options, found, started, logId, nextNumber, ring);
        }
        catch (final RuntimeException e)
        {
            ring.close(); // the segments are closed by ChangeLog.open
            throw e;
        }
    }

    private static ChangeLog finishWith(final Path directory, final FileChannel channel, final FileLock lock,
        final LogOptions options, final List<LogSegment> found, final long started, final long logId,
        final long initialNumber, final StagingRing ring)
    {
        long nextNumber = initialNumber;
        long recovered = 0;
        long position = found.get(0).start();
        int cutIn = found.size() - 1;
        scan:
        for (int i = 0; i < found.size(); i++)
        {
            final LogSegment s = found.get(i);
            final long logicalEnd = i + 1 < found.size() ? Math.min(found.get(i + 1).start(), s.limit()) : s.limit();
            cutIn = i;
            while (position < logicalEnd)
            {
                final long at = s.address() + (position - s.start());
                int length = LogFormat.validLength(at, position, logicalEnd - position);
                if (length == 0 && ring.recoverable())
                {
                    // frames a crashed process stored in its ring and had not copied yet: copied now, then forced
                    final long copied = recover(ring, s, position, logicalEnd);
                    recovered += copied;
                    length = copied == 0 ? 0 : LogFormat.validLength(at, position, logicalEnd - position);
                }
                if (length == 0)
                {
                    break scan;
                }
                final long w0 = RawMemory.getLongPlain(at);
                if (LogFormat.filter(w0) == 0 && LogFormat.op(w0) == LogFormat.OP_NUMBER)
                {
                    nextNumber = Math.max(nextNumber, RawMemory.getLongPlain(at + 8) + 1);
                }
                position += length;
            }
            if (i + 1 >= found.size() || found.get(i + 1).start() != position)
            {
                break;
            }
        }
        final long end = position;
        final LogSegment holding = found.get(cutIn);
        final long cutFrames = framesAfter(holding, end);
        long cutBytes = Math.max(0, holding.limit() - end);
        final List<LogSegment> kept = new ArrayList<>();
        int cutSegments = 0;
        for (final LogSegment s : found)
        {
            if (s.start() >= end)
            {
                cutBytes += s.limit() - s.start();
                cutSegments++;
                delete(s);
            }
            else
            {
                kept.add(s);
            }
        }
        kept.add(LogSegment.create(directory, end, options.segmentBytes(), logId, nextNumber,
            System.currentTimeMillis()));
        syncDirectory(directory);
        ring.reset(logId);
        return ChangeLog.opened(directory, channel, lock, options, logId, ring, kept, end, nextNumber,
            new LogOpenReport(false, found.size(), found.get(0).start(), end, cutBytes, cutFrames, cutSegments,
                recovered, System.nanoTime() - started));
    }

    /**
     * Copies the run of valid frames the ring holds from {@code position} (before {@code limit}) into the segment, and
     * forces them.
     *
     * @return the bytes copied.
     */
    private static long recover(final StagingRing ring, final LogSegment s, final long position, final long limit)
    {
        long p = position;
        while (p < limit && p - position < ring.bytes())
        {
            final int length = ring.validLength(p);
            if (length == 0 || p + length > limit || p + length - position > ring.bytes())
            {
                break;
            }
            p += length;
        }
        if (p > position)
        {
            ring.copyTo(s, position, p);
            s.force(position, p);
        }
        return p - position;
    }

    private static long framesAfter(final LogSegment s, final long end)
    {
        long frames = 0;
        final long stop = Math.min(s.limit(), end + LOOK_PAST_END);
        for (long p = end + UNIT; p < stop; p += UNIT)
        {
            if (LogFormat.validLength(s.address() + (p - s.start()), p, stop - p) > 0)
            {
                frames++;
            }
        }
        return frames;
    }

    private static long newLogId()
    {
        final SecureRandom random = new SecureRandom();
        long id;
        do
        {
            id = random.nextLong();
        }
        while (id == 0);
        return id;
    }

    private static void delete(final LogSegment s)
    {
        s.close();
        try
        {
            Files.deleteIfExists(s.path());
        }
        catch (final IOException e)
        {
            throw new FilterFileException(FilterFileException.Reason.IO, s.path(), "cannot delete a segment past " +
                "the change log's end: " + e, e);
        }
    }

    /**
     * At close: shortens the current segment to its pages that hold frames, deletes the empty ones made ahead, closes
     * the rest, and forces the directory.
     */
    static void closeSegments(final Path directory, final LogSegment[] segments, final LogSegment current,
        final long end)
    {
        for (final LogSegment s : segments)
        {
            if (s == current)
            {
                s.closeAt(end);
            }
            else if (s.start() > current.start())
            {
                delete(s);
            }
            else
            {
                s.close();
            }
        }
        syncDirectory(directory);
    }

    /** Forces a directory, so that segment files made or deleted in it survive a power cut. */
    static void syncDirectory(final Path directory)
    {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ))
        {
            channel.force(true);
        }
        catch (final IOException e)
        {
            LOG.log(System.Logger.Level.WARNING, "ddf: cannot force the change log's directory " + directory + ": " +
                e);
        }
    }
}
