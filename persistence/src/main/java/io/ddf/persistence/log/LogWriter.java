package io.ddf.persistence.log;

import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.platform.MappingAdvice;
import io.ddf.persistence.platform.RawMemory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static io.ddf.persistence.log.LogFormat.UNIT;

/**
 * The appending half of a {@link ChangeLog}: its segments, the tail positions are reserved from, the frames' stores
 * into the {@link StagingRing}, their copy from there into the segments ({@link #drain()}), the crossing into the next
 * segment (made ahead of need by the process's {@code ddf-log-ahead} thread), and the appended position (the longest
 * prefix of complete frames).
 */
final class LogWriter
{
    private static final VarHandle TAIL;
    private static final VarHandle MARK;
    /**
     * Record bytes copied into the segments at a time by the {@code ddf-log-ahead} thread (LogOptions.prefault), and
     * on the ring's first lap its pages readied as far ahead: 256 KiB (8,192 one-unit frames, 64 pages), a sixteenth
     * of the default ring, so that the appends find room while the copy of the chunk before runs; why the ring's first
     * pages are readied and not all at once: a log that never fills its ring (every embedded filter's own log, every
     * test) touches only what it uses.
     */
    private static final long AHEAD_CHUNK = 1L << 18;

    private static final System.Logger LOG = System.getLogger("io.ddf.persistence.log");
    /** Makes the next segments ahead of need, for every log of the process. */
    private static final ExecutorService AHEAD = Executors.newSingleThreadExecutor(r ->
    {
        final Thread thread = new Thread(r, "ddf-log-ahead");
        thread.setDaemon(true);
        return thread;
    });

    static
    {
        try
        {
            TAIL = MethodHandles.lookup().findVarHandle(LogWriter.class, "tail", long.class);
            MARK = MethodHandles.lookup().findVarHandle(LogWriter.class, "readyMark", long.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Path directory;
    private final LogOptions options;
    private final boolean owned;
    private final long logId;
    private final StagingRing ring;
    private final FrameCopier copier;
    private final long ringBytes;
    /** Work ahead is done by chunks of this many bytes (a quarter of a small ring). */
    private final long chunk;
    /** The ring's first lap ends here: its pages are readied ahead of the appends until then. */
    private final long firstLapEnd;
    /** Sorted by first position; replaced whole under {@code segmentLock}. */
    private volatile LogSegment[] segments;
    /** The segment appends go to now (the fast path's). */
    private volatile LogSegment current;
    /** The next position to reserve (through {@link #TAIL}). */
    @SuppressWarnings("unused")
    private volatile long tail;
    private final Object segmentLock = new Object();
    private final Object scanLock = new Object();
    /** Under {@code scanLock}: the appended position last found. */
    private long appendedFound;
    /** The next filter number, recorded in each new segment's header. */
    private volatile long nextNumber;
    private volatile LogUnavailableException failure;
    /** Told each failure as it is set, and null when a retry clears it (see {@link ChangeLog#onFailure}). */
    private volatile java.util.function.Consumer<LogUnavailableException> failures = failed -> { };
    private volatile boolean aheadQueued;
    /**
     * When the tail reaches it, the log's thread copies the complete frames into the segments and, on the ring's first
     * lap, readies the ring's pages of the chunk after the next (through {@link #MARK}).
     */
    @SuppressWarnings("unused")
    private volatile long readyMark;
    private boolean closed;

    LogWriter(final Path directory, final LogOptions options, final long logId, final StagingRing ring,
        final List<LogSegment> segments, final long end, final long nextNumber)
    {
        this.directory = directory;
        this.options = options;
        this.owned = options.owned();
        this.logId = logId;
        this.ring = ring;
        this.ringBytes = ring.bytes();
        this.chunk = Math.min(AHEAD_CHUNK, ringBytes / 4);
        this.firstLapEnd = end + ringBytes;
        this.copier = new FrameCopier(this, ring, end);
        this.segments = segments.toArray(new LogSegment[0]);
        this.current = this.segments[this.segments.length - 1];
        this.tail = end;
        this.appendedFound = end;
        this.nextNumber = nextNumber;
        this.readyMark = options.prefault() ? end + chunk : Long.MAX_VALUE;
        if (options.prefault())
        {
            queueAhead(end, end + 2 * chunk); // the ring an open resets is fresh
        }
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
    long append(final int filter, final int op, final int aux, final long hash, final long arg)
    {
        final long w0 = LogFormat.word0(filter, op, 1, aux);
        while (true)
        {
            final long p = reserve(UNIT);
            room(p + UNIT);
            if (p >= (long)MARK.getOpaque(this))
            {
                readyAhead(p);
            }
            final LogSegment s = current;
            if ((p < s.start() || p + UNIT > s.limit()) && slowSegment(p, UNIT) == null)
            {
                continue;
            }
            final StagingRing r = ring;
            RawMemory.putLongPlain(r.word(p, 0), w0);
            RawMemory.putLongPlain(r.word(p, 1), hash);
            RawMemory.putLongPlain(r.word(p, 2), arg);
            RawMemory.putLongRelease(r.word(p, 3), LogFormat.check1(w0, hash, arg, p));
            return published(p + UNIT);
        }
    }

    /**
     * Appends a two-unit frame: {@link #append}'s fields and four more arguments.
     *
     * @return the frame's end position.
     * @throws LogUnavailableException when the next segment cannot be made (full disk).
     */
    long append2(final int filter, final int op, final int aux, final long hash, final long arg,
        final long arg3, final long arg4, final long arg5, final long arg6)
    {
        final long w0 = LogFormat.word0(filter, op, 2, aux);
        while (true)
        {
            final long p = reserve(2 * UNIT);
            room(p + 2 * UNIT);
            if (p >= (long)MARK.getOpaque(this))
            {
                readyAhead(p);
            }
            final LogSegment s = current;
            if ((p < s.start() || p + 2 * UNIT > s.limit()) && slowSegment(p, 2 * UNIT) == null)
            {
                continue;
            }
            final StagingRing r = ring;
            RawMemory.putLongPlain(r.word(p, 0), w0);
            RawMemory.putLongPlain(r.word(p, 1), hash);
            RawMemory.putLongPlain(r.word(p, 2), arg);
            RawMemory.putLongPlain(r.word(p, 3), arg3);
            RawMemory.putLongPlain(r.word(p, 4), arg4);
            RawMemory.putLongPlain(r.word(p, 5), arg5);
            RawMemory.putLongPlain(r.word(p, 6), arg6);
            RawMemory.putLongRelease(r.word(p, 7), LogFormat.check2(w0, hash, arg, arg3, arg4, arg5, arg6, p));
            return published(p + 2 * UNIT);
        }
    }

    private void room(final long end)
    {
        copier.room(end, true);
    }

    /**
     * Copies the complete frames not yet copied from the ring into the segments.
     *
     * @return the position before which every frame is in the segments.
     */
    long drain()
    {
        return copier.drain();
    }

    /** @return the position before which every frame is in the segments. */
    long copied()
    {
        return copier.drained();
    }

    /** The tail passed the mark: one caller moves it a chunk on and queues the work ahead. */
    private void readyAhead(final long p)
    {
        final long mark = (long)MARK.getOpaque(this);
        if (p < mark || !owned && !MARK.compareAndSet(this, mark, mark + chunk))
        {
            return; // another appender moved it
        }
        if (owned)
        {
            MARK.setOpaque(this, mark + chunk); // one appender: no locked instruction
        }
        queueAhead(mark + chunk, mark + 2 * chunk);
    }

    /**
     * On the {@code ddf-log-ahead} thread: copies the complete frames into the segments and, on the ring's first lap,
     * readies the ring's pages of positions [from, to): populated, then written once through the mapping (which
     * changes no byte), so that an append takes neither a fault nor a page's first write.
     */
    private void queueAhead(final long from, final long to)
    {
        try
        {
            AHEAD.execute(() ->
            {
                synchronized (segmentLock) // a close (which unmaps after it) waits for the copy
                {
                    if (closed)
                    {
                        return;
                    }
                    try
                    {
                        drain();
                    }
                    catch (final LogUnavailableException e)
                    {
                        return; // the failure is the log's now; appends are refused until a retry
                    }
                    for (long p = from; p < Math.min(to, firstLapEnd); )
                    {
                        final long at = ring.word(p, 0);
                        final long run = Math.min(Math.min(to, firstLapEnd) - p,
                            ringBytes - (p & ringBytes - 1));
                        MappingAdvice.populateForWrite(at & -4096L, run + (at & 4095L));
                        MappingAdvice.touchForWrite(at & -4096L, run + (at & 4095L));
                        p += run;
                    }
                }
            });
        }
        catch (final java.util.concurrent.RejectedExecutionException e)
        {
            // best effort: the appends copy when the ring is full, and a force copies what it forces
        }
    }

    private long reserve(final int length)
    {
        return owned ? (long)TAIL.getOpaque(this) : (long)TAIL.getAndAdd(this, (long)length);
    }

    private long published(final long end)
    {
        if (owned)
        {
            TAIL.setRelease(this, end);
        }
        return end;
    }

    /**
     * The slow path: the reserved frame lies outside the current segment. Finds (or makes) its segment; when the
     * frame would cross a segment's end, pads both parts and returns null (the caller reserves again).
     */
    private LogSegment slowSegment(final long p, final int length)
    {
        synchronized (segmentLock)
        {
            checkOpen();
            final LogSegment s = segmentThrough(p);
            if (p + length > s.limit())
            {
                pad(p, s.limit());
                final LogSegment next = segmentThrough(s.limit());
                pad(s.limit(), p + length);
                current = next;
                published(p + length);
                makeAhead();
                return null;
            }
            if (s.start() > current.start())
            {
                current = s;
                makeAhead();
            }
            return s;
        }
    }

    /** Under {@code segmentLock}: the segment holding {@code p}, made (with those before it) when missing. */
    private LogSegment segmentThrough(final long p)
    {
        LogSegment[] all = segments;
        LogSegment last = all[all.length - 1];
        while (p >= last.limit())
        {
            try
            {
                last = LogSegment.create(directory, last.limit(), options.segmentBytes(), logId, nextNumber,
                    System.currentTimeMillis());
            }
            catch (final FilterFileException e)
            {
                final LogUnavailableException failed = new LogUnavailableException(directory,
                    "cannot make its next segment: " + e.getMessage(), e);
                failure = failed;
                failures.accept(failed);
                throw failed;
            }
            all = Arrays.copyOf(all, all.length + 1);
            all[all.length - 1] = last;
            segments = all;
        }
        for (int i = all.length - 1; i >= 0; i--)
        {
            if (all[i].start() <= p)
            {
                return all[i];
            }
        }
        throw new IllegalStateException("position " + p + " lies before the log's first segment");
    }

    /** PAD frames over [from, to), into the ring (the caller has room for them). */
    private void pad(final long from, final long to)
    {
        final long w0 = LogFormat.word0(0, LogFormat.OP_PAD, 1, 0);
        for (long p = from; p < to; p += UNIT)
        {
            RawMemory.putLongPlain(ring.word(p, 0), w0);
            RawMemory.putLongPlain(ring.word(p, 1), 0);
            RawMemory.putLongPlain(ring.word(p, 2), 0);
            RawMemory.putLongRelease(ring.word(p, 3), LogFormat.check1(w0, 0, 0, p));
        }
    }

    /** Queues the making of the segment after the current one, unless it exists or is queued. */
    void makeAhead()
    {
        if (aheadQueued)
        {
            return;
        }
        final LogSegment[] all = segments;
        if (all[all.length - 1] != current)
        {
            return;
        }
        aheadQueued = true;
        AHEAD.execute(() ->
        {
            try
            {
                synchronized (segmentLock)
                {
                    if (closed)
                    {
                        return;
                    }
                    segmentThrough(current.limit()); // its frames come by positional writes from the ring
                }
            }
            catch (final LogUnavailableException e)
            {
                LOG.log(System.Logger.Level.WARNING, "ddf: " + e.getMessage() + " (writes that need the log are " +
                    "refused once the current segment is full)");
            }
            catch (final RuntimeException e)
            {
                LOG.log(System.Logger.Level.WARNING, "ddf: change log " + directory + ": " + e);
            }
            finally
            {
                aheadQueued = false;
            }
        });
    }

    /**
     * @return the appended position: the end of the longest prefix of complete frames (what {@link #force} can make
     *         durable). Frames being written by other threads end it until they complete.
     */
    long appended()
    {
        if (owned)
        {
            return (long)TAIL.getVolatile(this);
        }
        synchronized (scanLock)
        {
            long p = appendedFound;
            final long reserved = (long)TAIL.getVolatile(this);
            while (p < reserved)
            {
                // in the ring: a frame of the lap before, or one half written, does not validate for this position
                final int length = ring.validLength(p);
                if (length == 0)
                {
                    break;
                }
                p += length;
            }
            appendedFound = p;
            return p;
        }
    }


    /** @return the log's directory. */
    Path directory()
    {
        return directory;
    }

    /** @return the next position a frame would be reserved at. */
    long reserved()
    {
        return (long)TAIL.getVolatile(this);
    }

    /** @return the segments now, sorted. */
    LogSegment[] segments()
    {
        return segments;
    }

    /** @return the segment appends go to. */
    LogSegment current()
    {
        return current;
    }

    /** @return the failure that stops appends, or null. */
    LogUnavailableException failure()
    {
        return failure;
    }

    /** @param failed a failure to report until a retry succeeds (null: cleared). */
    void failure(final LogUnavailableException failed)
    {
        failure = failed;
        failures.accept(failed);
    }

    /** @param listener told each failure as it is set, and null when one is cleared. */
    void onFailure(final java.util.function.Consumer<LogUnavailableException> listener)
    {
        failures = listener;
    }

    /** @param number the next filter number (recorded in segments made from now on). */
    void nextNumber(final long number)
    {
        nextNumber = number;
    }

    /**
     * Makes the segments missing through the reserved position and pads the positions appends reserved but could
     * not write (they failed for want of a segment).
     */
    void fillAfterFailure()
    {
        synchronized (segmentLock)
        {
            final LogSegment[] before = segments;
            final long oldLimit = before[before.length - 1].limit();
            final long reserved = reserved();
            segmentThrough(Math.max(reserved, current.limit()));
            for (long p = oldLimit; p < reserved; p += UNIT)
            {
                copier.room(p + UNIT, false); // the positions reserved may span more than the ring
                pad(p, p + UNIT);
            }
        }
    }

    /**
     * Deletes the segments holding only positions before {@code position} and {@code forced}, never the current one.
     *
     * @return the segments dropped (closed; the caller deletes their files).
     */
    LogSegment[] drop(final long position, final long forced)
    {
        synchronized (segmentLock)
        {
            final LogSegment[] all = segments;
            int drop = 0;
            while (drop + 1 < all.length && all[drop + 1].start() <= position && all[drop] != current &&
                all[drop + 1].start() <= forced)
            {
                drop++;
            }
            segments = Arrays.copyOfRange(all, drop, all.length);
            final LogSegment[] dropped = Arrays.copyOf(all, drop);
            for (final LogSegment s : dropped)
            {
                s.close();
            }
            return dropped;
        }
    }

    /** Stops appends and the making of segments ahead. */
    void close()
    {
        synchronized (segmentLock)
        {
            closed = true;
        }
    }

    /**
     * Closes the ring's file (after the last copy).
     *
     * @param copied whether every frame is in the segments (the ring then retired: nothing to take at the next open).
     */
    void closeRing(final boolean copied)
    {
        if (copied)
        {
            ring.retire();
        }
        ring.close();
    }

    /** @return whether {@link #close()} was called. */
    boolean closed()
    {
        synchronized (segmentLock)
        {
            return closed;
        }
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("change log " + directory + " is closed");
        }
    }
}
