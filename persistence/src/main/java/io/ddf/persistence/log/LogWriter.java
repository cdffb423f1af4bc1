package io.ddf.persistence.log;

import io.ddf.persistence.FilterFileException;
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
 * The appending half of a {@link ChangeLog}: its segments, the tail positions are reserved from, the frames' stores,
 * the crossing into the next segment (made ahead of need by the process's {@code ddf-log-ahead} thread), and the
 * appended position (the longest prefix of complete frames).
 */
final class LogWriter
{
    private static final VarHandle TAIL;
    private static final VarHandle MARK;
    /**
     * Record bytes readied at a time ahead of the tail (LogOptions.prefault; {@link LogSegment#readyForAppends}): 1 MiB,
     * 32,768 one-unit frames, 256 pages. Why ahead of the tail and on the {@code ddf-log-ahead} thread: a page's first
     * write through the mapping is the dear one (a fault, and on a shadow-paged guest the shadow's fill), and the
     * writers' threads are the event loops; why by chunks and not a whole segment at once: a log that never fills its
     * segment (every embedded filter's own log, every test) readies only what it uses.
     */
    private static final long READY_CHUNK = 1L << 20;
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
     * When the tail reaches it, the chunk after the next is readied (through {@link #MARK}): the record bytes up to
     * {@code readyMark + READY_CHUNK} are readied or queued to be, in the segments that exist by then.
     */
    @SuppressWarnings("unused")
    private volatile long readyMark;
    private boolean closed;

    LogWriter(final Path directory, final LogOptions options, final long logId, final List<LogSegment> segments,
        final long end, final long nextNumber)
    {
        this.directory = directory;
        this.options = options;
        this.owned = options.owned();
        this.logId = logId;
        this.segments = segments.toArray(new LogSegment[0]);
        this.current = this.segments[this.segments.length - 1];
        this.tail = end;
        this.appendedFound = end;
        this.nextNumber = nextNumber;
        this.readyMark = options.prefault() ? end + READY_CHUNK : Long.MAX_VALUE;
        if (options.prefault())
        {
            queueReady(end, end + 2 * READY_CHUNK); // the segment an open makes is fresh
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
            if (p >= (long)MARK.getOpaque(this))
            {
                readyAhead(p);
            }
            LogSegment s = current;
            if (p < s.start() || p + UNIT > s.limit())
            {
                s = slowSegment(p, UNIT);
                if (s == null)
                {
                    continue;
                }
            }
            final long a = s.address() + (p - s.start());
            RawMemory.putLongPlain(a, w0);
            RawMemory.putLongPlain(a + 8, hash);
            RawMemory.putLongPlain(a + 16, arg);
            RawMemory.putLongRelease(a + 24, LogFormat.check1(w0, hash, arg, p));
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
            if (p >= (long)MARK.getOpaque(this))
            {
                readyAhead(p);
            }
            LogSegment s = current;
            if (p < s.start() || p + 2 * UNIT > s.limit())
            {
                s = slowSegment(p, 2 * UNIT);
                if (s == null)
                {
                    continue;
                }
            }
            final long a = s.address() + (p - s.start());
            RawMemory.putLongPlain(a, w0);
            RawMemory.putLongPlain(a + 8, hash);
            RawMemory.putLongPlain(a + 16, arg);
            RawMemory.putLongPlain(a + 24, arg3);
            RawMemory.putLongPlain(a + 32, arg4);
            RawMemory.putLongPlain(a + 40, arg5);
            RawMemory.putLongPlain(a + 48, arg6);
            RawMemory.putLongRelease(a + 56, LogFormat.check2(w0, hash, arg, arg3, arg4, arg5, arg6, p));
            return published(p + 2 * UNIT);
        }
    }

    /** The tail passed the mark: one caller moves it a chunk on and queues the readying of the chunk after. */
    private void readyAhead(final long p)
    {
        final long mark = (long)MARK.getOpaque(this);
        if (p < mark || !owned && !MARK.compareAndSet(this, mark, mark + READY_CHUNK))
        {
            return; // another appender moved it
        }
        if (owned)
        {
            MARK.setOpaque(this, mark + READY_CHUNK); // one appender: no locked instruction
        }
        queueReady(mark + READY_CHUNK, mark + 2 * READY_CHUNK);
    }

    /** Readies the record bytes of [from, to) on the {@code ddf-log-ahead} thread, in the segments there are then. */
    private void queueReady(final long from, final long to)
    {
        try
        {
            AHEAD.execute(() ->
            {
                synchronized (segmentLock) // a close (which unmaps after it) waits for the stores
                {
                    if (closed)
                    {
                        return;
                    }
                    for (final LogSegment s : segments)
                    {
                        s.readyForAppends(from, to);
                    }
                }
            });
        }
        catch (final java.util.concurrent.RejectedExecutionException e)
        {
            // best effort: the appends take the pages' first writes themselves
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
                pad(s, p, s.limit());
                final LogSegment next = segmentThrough(s.limit());
                pad(next, s.limit(), p + length);
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

    private static void pad(final LogSegment s, final long from, final long to)
    {
        final long w0 = LogFormat.word0(0, LogFormat.OP_PAD, 1, 0);
        for (long p = from; p < to; p += UNIT)
        {
            final long a = s.address() + (p - s.start());
            RawMemory.putLongPlain(a, w0);
            RawMemory.putLongPlain(a + 8, 0);
            RawMemory.putLongPlain(a + 16, 0);
            RawMemory.putLongRelease(a + 24, LogFormat.check1(w0, 0, 0, p));
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
                    segmentThrough(current.limit()); // its pages are readied by chunks as the tail nears them
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
            final LogSegment[] all = segments;
            int i = indexOf(all, p);
            while (p < reserved && i >= 0 && i < all.length)
            {
                final LogSegment s = all[i];
                if (p >= s.limit())
                {
                    i++;
                    continue;
                }
                final long a = s.address() + (p - s.start());
                final long w0 = RawMemory.getLongVolatile(a);
                if (w0 == 0)
                {
                    break;
                }
                final int length = LogFormat.units(w0) * UNIT;
                if (RawMemory.getLongVolatile(a + length - 8) == 0)
                {
                    break;
                }
                p += length;
            }
            appendedFound = p;
            return p;
        }
    }

    private static int indexOf(final LogSegment[] all, final long p)
    {
        for (int i = all.length - 1; i >= 0; i--)
        {
            if (all[i].start() <= p)
            {
                return i;
            }
        }
        return -1;
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
            for (long p = oldLimit; p < reserved; )
            {
                final LogSegment s = segmentThrough(p);
                final long to = Math.min(reserved, s.limit());
                pad(s, p, to);
                p = to;
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
