package io.ddf.persistence.log;

import io.ddf.persistence.FilterFileException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Copies a log's complete frames from its {@link StagingRing} into its segments, and keeps the ring from overwriting
 * frames not copied yet: the one place that knows how far the copy has come ({@link #drained()}).
 */
final class FrameCopier
{
    private static final VarHandle DRAINED;
    /** How long an append waits for room in the ring before it fails (frames before it never completed). */
    private static final long ROOM_LIMIT_NANOS = 1_000_000_000L;

    static
    {
        try
        {
            DRAINED = MethodHandles.lookup().findVarHandle(FrameCopier.class, "drained", long.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final LogWriter writer;
    private final StagingRing ring;
    private final Object lock = new Object();
    /** Frames before this position are in the segments (through {@link #DRAINED}); the ring may reuse their bytes. */
    @SuppressWarnings("unused")
    private volatile long drained;

    FrameCopier(final LogWriter writer, final StagingRing ring, final long end)
    {
        this.writer = writer;
        this.ring = ring;
        this.drained = end;
    }

    /**
     * Waits until the ring has room for a frame ending at {@code end}: the frames of the lap before are in the
     * segments. The appender copies them itself when the log's thread is behind; it waits only for frames before its
     * own that other threads are still writing.
     *
     * @throws LogUnavailableException when the copy fails, or the frames before never complete.
     */
    void room(final long end, final boolean refuseOnFailure)
    {
        if (end - (long)DRAINED.getAcquire(this) <= ring.bytes())
        {
            return;
        }
        final long started = System.nanoTime();
        int spins = 0;
        while (end - drain() > ring.bytes())
        {
            final LogUnavailableException failed = writer.failure();
            if (refuseOnFailure && failed != null)
            {
                throw failed;
            }
            if (System.nanoTime() - started > ROOM_LIMIT_NANOS)
            {
                throw new LogUnavailableException(writer.directory(), "its staging ring has had no room for a " +
                    "second: a frame before position " + (end - ring.bytes()) + " was reserved and is still not " +
                    "written", null);
            }
            if (++spins > 100)
            {
                Thread.yield();
            }
            else
            {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Copies the complete frames not yet copied from the ring into the segments (one {@code pwrite} per segment and
     * ring lap they span), each position into the segment that holds it: the last one starting at or before it (the
     * segment an open cut ends where the next one starts).
     *
     * @return the position before which every frame is in the segments.
     * @throws LogUnavailableException when a write fails (the log refuses appends until a retry succeeds).
     */
    long drain()
    {
        synchronized (lock)
        {
            final long from = (long)DRAINED.getVolatile(this);
            final long to = writer.appended();
            if (to <= from)
            {
                return from;
            }
            try
            {
                final LogSegment[] all = writer.segments();
                for (int i = 0; i < all.length; i++)
                {
                    final LogSegment s = all[i];
                    final long lo = Math.max(from, s.start());
                    final long hi = Math.min(to, i + 1 < all.length ? Math.min(s.limit(), all[i + 1].start()) :
                        s.limit());
                    if (lo < hi)
                    {
                        ring.copyTo(s, lo, hi);
                    }
                }
            }
            catch (final FilterFileException e)
            {
                final LogUnavailableException failed = new LogUnavailableException(writer.directory(),
                    "writing its frames failed: " + e.getMessage(), e);
                writer.failure(failed);
                throw failed;
            }
            DRAINED.setRelease(this, to);
            return to;
        }
    }

    /** @return the position before which every frame is in the segments. */
    long drained()
    {
        return (long)DRAINED.getVolatile(this);
    }
}
