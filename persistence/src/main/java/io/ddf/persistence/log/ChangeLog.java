package io.ddf.persistence.log;

import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.Leftovers;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.ddf.persistence.FilterFileException.Reason.IO;
import static io.ddf.persistence.FilterFileException.Reason.LOCKED;

/**
 * A change log (FORMAT-LOG.md): a directory of preallocated, mapped segment files to which filters append small
 * checked frames, forced by group commit ({@link #force(long)}) and dropped before the oldest checkpoint
 * ({@link #dropBefore(long)}).
 *
 * <p>Appends ({@link #append}, {@link #append2}, or through a thread's {@link LogAppender}) take no lock: a frame's
 * position is reserved by one atomic add (a log opened {@link LogOptions#owned() owned}: a plain load, one writing
 * thread at a time), its words stored into the mapped {@link StagingRing} (so it is in the page cache before the call
 * returns: a {@code kill -9} loses nothing, the next open copies it from there), its check last with a release store.
 * The log's own thread copies complete frames from the ring into the segments ({@code pwrite}); a force copies what it
 * forces. Crossing into the next segment takes a lock, once per segment; that segment was made ahead by the log's own
 * thread.
 *
 * <p>One process writes a log directory at a time (an OS lock on its {@code LOCK} file).
 */
public final class ChangeLog implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger("io.ddf.persistence.log");
    private static final long SPIN_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Path directory;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final long logId;
    private final LogOpenReport report;
    private final LogWriter writer;
    private final Object forceLock = new Object();
    private final Object numberLock = new Object();
    private volatile long forced;
    /** Under {@code numberLock}. */
    private long nextNumber;
    private volatile long forces;
    private volatile long lastForceNanos;
    private volatile long maxForceNanos;
    private volatile long totalForceNanos;
    private volatile long lastForceStartMillis;

    private ChangeLog(final Path directory, final FileChannel lockChannel, final FileLock lock,
        final LogOptions options, final long logId, final StagingRing ring, final List<LogSegment> segments,
        final long end, final long nextNumber, final LogOpenReport report)
    {
        this.directory = directory;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.logId = logId;
        this.writer = new LogWriter(directory, options, logId, ring, segments, end, nextNumber);
        this.forced = end;
        this.nextNumber = nextNumber;
        this.report = report;
    }

    /**
     * Opens the change log in a directory, creating it (and the directory, {@code rwx------}) when there is none, and
     * cuts its torn tail (FORMAT-LOG.md): appends continue at its end, in a new segment.
     *
     * @param directory the log's directory.
     * @param options   segment size, ownership, prefaulting.
     * @return the log, open for appending.
     * @throws FilterFileException LOCKED when another process (or this one) has it open, CORRUPT naming a segment whose
     *                             header is wrong, NO_SPACE when the first segment cannot be made, IO otherwise.
     */
    public static ChangeLog open(final Path directory, final LogOptions options)
    {
        final long started = System.nanoTime();
        final FileChannel channel = lockDirectory(directory);
        FileLock lock = null;
        final List<LogSegment> open = new ArrayList<>();
        try
        {
            lock = channel.tryLock();
            if (lock == null)
            {
                throw new FilterFileException(LOCKED, directory, "another process has this change log open");
            }
            Leftovers.remove(directory);
            for (final Path path : segmentFiles(directory))
            {
                open.add(LogSegment.open(path, LogFormat.positionOf(path.getFileName().toString())));
            }
            return LogOpening.finish(directory, channel, lock, options, open, started);
        }
        catch (final OverlappingFileLockException e)
        {
            closeQuietly(channel);
            throw new FilterFileException(LOCKED, directory, "this process has this change log open already", e);
        }
        catch (final IOException e)
        {
            open.forEach(LogSegment::close);
            closeQuietly(channel);
            throw new FilterFileException(IO, directory, "cannot open the change log: " + e, e);
        }
        catch (final RuntimeException e)
        {
            open.forEach(LogSegment::close);
            closeQuietly(channel);
            throw e;
        }
    }

    /** Called by {@link LogOpening} once the segments are read and the tail cut. */
    static ChangeLog opened(final Path directory, final FileChannel channel, final FileLock lock,
        final LogOptions options, final long logId, final StagingRing ring, final List<LogSegment> segments,
        final long end, final long nextNumber, final LogOpenReport report)
    {
        final ChangeLog log = new ChangeLog(directory, channel, lock, options, logId, ring, segments, end, nextNumber,
            report);
        log.writer.makeAhead();
        return log;
    }

    private static FileChannel lockDirectory(final Path directory)
    {
        try
        {
            if (!Files.isDirectory(directory))
            {
                Files.createDirectories(directory,
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            return FileChannel.open(directory.resolve("LOCK"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        }
        catch (final IOException e)
        {
            throw new FilterFileException(IO, directory, "cannot open the change log's directory: " + e, e);
        }
    }

    private static List<Path> segmentFiles(final Path directory) throws IOException
    {
        final List<Path> found = new ArrayList<>();
        try (var entries = Files.list(directory))
        {
            entries.filter(p -> LogFormat.positionOf(p.getFileName().toString()) >= 0).forEach(found::add);
        }
        found.sort((a, b) -> Long.compareUnsigned(LogFormat.positionOf(a.getFileName().toString()),
            LogFormat.positionOf(b.getFileName().toString())));
        return found;
    }

    static void closeQuietly(final AutoCloseable closeable)
    {
        try
        {
            closeable.close();
        }
        catch (final Exception ignored)
        {
            // already failing
        }
    }

    /** @return what the open found and cut. */
    public LogOpenReport openReport()
    {
        return report;
    }

    /** @return the log's directory. */
    public Path directory()
    {
        return directory;
    }

    /** @return the log's id (every segment's header holds it; a filter's header names the log it is written through). */
    public long logId()
    {
        return logId;
    }

    /**
     * Appends a one-unit frame (FORMAT-LOG.md); no lock in the common case.
     *
     * @param filter the filter's number (1..); 0 for the log's own frames.
     * @param op     the op code.
     * @param aux    the aux field, 0..{@link LogFormat#MAX_AUX}.
     * @param hash   word 1.
     * @param arg    word 2.
     * @return the frame's end position.
     * @throws LogUnavailableException when the next segment cannot be made (full disk).
     */
    public long append(final int filter, final int op, final int aux, final long hash, final long arg)
    {
        return writer.append(filter, op, aux, hash, arg);
    }

    /**
     * Appends a two-unit frame: {@link #append}'s fields and four more arguments.
     *
     * @return the frame's end position.
     * @throws LogUnavailableException when the next segment cannot be made (full disk).
     */
    public long append2(final int filter, final int op, final int aux, final long hash, final long arg,
        final long arg3, final long arg4, final long arg5, final long arg6)
    {
        return writer.append2(filter, op, aux, hash, arg, arg3, arg4, arg5, arg6);
    }

    /**
     * @return the appended position: the end of the longest prefix of complete frames (what {@link #force} can make
     *         durable). Frames being written by other threads end it until they complete.
     */
    public long appended()
    {
        return writer.appended();
    }

    /** @return a handle for the calling thread's appends, which remembers where the last one ended. */
    public LogAppender appender()
    {
        return new LogAppender(this);
    }

    /** @return the position before which every frame is in the segments (copied from the staging ring). */
    long copied()
    {
        return writer.copied();
    }

    /** @return the position up to which the log is on the device. */
    public long forced()
    {
        return forced;
    }

    /** @return the next position a frame would be reserved at (frames before it may still be being written). */
    public long reserved()
    {
        return writer.reserved();
    }

    /**
     * Forces the log up to at least {@code upTo} (group commit: a caller that finds a force under way waits for it,
     * and one force covers every frame complete when it starts). Waits for frames still being written before
     * {@code upTo} (nanoseconds, in practice).
     *
     * @param upTo a position (an appender's {@link LogAppender#end()}, or {@link #reserved()}).
     * @return the forced position now (at least {@code upTo}).
     * @throws LogUnavailableException when the log cannot be forced (an I/O error): the caller must not acknowledge
     *                                 the writes after {@link #forced()}; {@link #failure()} says why until a retry
     *                                 succeeds.
     */
    public long force(final long upTo)
    {
        if (forced >= upTo)
        {
            return forced;
        }
        synchronized (forceLock)
        {
            final long from = forced;
            if (from >= upTo)
            {
                return from;
            }
            final long startMillis = System.currentTimeMillis();
            final long target = awaitAppended(Math.min(upTo, reserved()));
            final long started = System.nanoTime();
            writer.drain(); // at least through target: those frames are complete
            try
            {
                for (final LogSegment s : writer.segments())
                {
                    if (s.limit() > from && s.start() < target)
                    {
                        s.force(from, target);
                    }
                }
            }
            catch (final FilterFileException e)
            {
                final LogUnavailableException failed = new LogUnavailableException(directory,
                    "forcing it failed: " + e.getMessage(), e);
                writer.failure(failed);
                throw failed;
            }
            final long took = System.nanoTime() - started;
            forces++;
            lastForceNanos = took;
            maxForceNanos = Math.max(maxForceNanos, took);
            totalForceNanos += took;
            forced = target;
            lastForceStartMillis = startMillis;
            return target;
        }
    }

    private long awaitAppended(final long upTo)
    {
        long now = appended();
        final long started = System.nanoTime();
        int spins = 0;
        while (now < upTo)
        {
            if (System.nanoTime() - started > SPIN_LIMIT_NANOS)
            {
                final LogUnavailableException failed = writer.failure();
                throw failed != null ? failed : new LogUnavailableException(directory, "a frame before position " +
                    upTo + " was reserved a second ago and is still not written", null);
            }
            if (++spins > 100)
            {
                Thread.yield();
            }
            else
            {
                Thread.onSpinWait();
            }
            now = appended();
        }
        return now;
    }

    /** @return why the log cannot be written now (a write needing it must be refused), or null when it can. */
    public LogUnavailableException failure()
    {
        return writer.failure();
    }

    /**
     * @param listener told {@link #failure()} now, then each failure on the thread that meets it and null when a
     *                 retry clears it: what a caller that refuses writes can keep in a field of its own instead of
     *                 asking before every write. It must not block.
     */
    public void onFailure(final java.util.function.Consumer<LogUnavailableException> listener)
    {
        writer.onFailure(listener);
        listener.accept(writer.failure());
    }

    /**
     * Tries again after a failure: makes the missing segments (padding the positions reserved by appends that failed)
     * and forces. Clears {@link #failure()} when it succeeds.
     *
     * @return whether the log can be written now.
     */
    public boolean retry()
    {
        if (writer.failure() == null)
        {
            return true;
        }
        try
        {
            writer.fillAfterFailure();
            writer.failure(null);
            force(appended());
            return true;
        }
        catch (final LogUnavailableException e)
        {
            return false;
        }
    }

    /**
     * Gives out a filter number (FORMAT-LOG.md, "Filter numbers"): recorded by a NUMBER frame, forced before it is
     * returned. In an owned log, call it from the appending thread (or before appends start).
     *
     * @return a number no filter of this log had.
     */
    public int newFilterNumber()
    {
        final long number;
        synchronized (numberLock)
        {
            number = nextNumber++;
            writer.nextNumber(nextNumber);
        }
        force(append(0, LogFormat.OP_NUMBER, 0, number, 0));
        return (int)number;
    }

    /**
     * Deletes the segments that hold only positions before {@code position} (never the one appends go to), and
     * forces the directory.
     *
     * @param position the lowest checkpoint position of the filters written through this log.
     * @return segment files deleted.
     */
    public int dropBefore(final long position)
    {
        final LogSegment[] dropped = writer.drop(position, forced);
        for (final LogSegment s : dropped)
        {
            try
            {
                Files.deleteIfExists(s.path());
            }
            catch (final IOException e)
            {
                LOG.log(System.Logger.Level.WARNING, "ddf: cannot delete " + s.path() + ": " + e);
            }
        }
        if (dropped.length > 0)
        {
            LogOpening.syncDirectory(directory);
        }
        return dropped.length;
    }

    /** @return the oldest position the log holds. */
    public long start()
    {
        return writer.segments()[0].start();
    }

    /**
     * @param from a position at or after {@link #start()} where a frame starts (a checkpoint position).
     * @return a reader of the frames from there to the appended position now.
     */
    public LogReader reader(final long from)
    {
        return new LogReader(writer.segments(), Math.max(from, start()), writer.drain());
    }

    /** @return the figures for INFO. */
    public LogStats stats()
    {
        final LogSegment[] all = writer.segments();
        long bytes = 0;
        for (final LogSegment s : all)
        {
            bytes += s.fileBytes();
        }
        final LogUnavailableException failed = writer.failure();
        return new LogStats(bytes, all.length, all[0].start(), appended(), forced, forces, lastForceNanos,
            maxForceNanos, totalForceNanos, failed == null ? null : failed.getMessage(), lastForceStartMillis);
    }

    /**
     * Forces what was appended, shortens the last segment to what it holds, deletes the segments made ahead, and
     * releases the directory. Appends must have stopped.
     */
    @Override
    public void close()
    {
        if (writer.closed())
        {
            return;
        }
        long end = appended();
        writer.close();
        boolean copied = false;
        try
        {
            end = force(end);
            copied = true;
        }
        catch (final LogUnavailableException e)
        {
            LOG.log(System.Logger.Level.WARNING, "ddf: " + e.getMessage());
        }
        try
        {
            LogOpening.closeSegments(directory, writer.segments(), writer.current(), end);
        }
        finally
        {
            writer.closeRing(copied);
            closeQuietly(lock);
            closeQuietly(lockChannel);
        }
    }

    @Override
    public String toString()
    {
        return "ChangeLog{" + directory + ", id " + Long.toHexString(logId) + '}';
    }
}
