package io.ddf.persistence.log;

import io.ddf.persistence.platform.RawMemory;

/**
 * Reads a change log's frames in position order, from a position where a frame starts to an end position, checking
 * each (a frame that does not validate ends the reading: {@link #stoppedEarly()}). Accessors describe the frame
 * {@link #next()} moved to. One thread; the segments read must not be dropped meanwhile.
 */
public final class LogReader
{
    private final LogSegment[] segments;
    private final long end;
    private int index;
    private long position;
    private long at;
    private long w0;
    private int length;
    private boolean stoppedEarly;

    LogReader(final LogSegment[] segments, final long from, final long end)
    {
        this.segments = segments.clone();
        this.end = end;
        this.position = from;
        this.index = 0;
        while (index + 1 < segments.length && segments[index + 1].start() <= from)
        {
            index++;
        }
    }

    /**
     * Moves to the next frame.
     *
     * @return whether there is one (false at the end, or at a frame that does not validate).
     */
    public boolean next()
    {
        position += length;
        length = 0;
        if (position >= end)
        {
            return false;
        }
        while (index + 1 < segments.length && segments[index + 1].start() <= position)
        {
            index++;
        }
        final LogSegment s = segments[index];
        final long limit = Math.min(end, index + 1 < segments.length ? Math.min(segments[index + 1].start(),
            s.limit()) : s.limit());
        at = s.address() + (position - s.start());
        final int valid = LogFormat.validLength(at, position, limit - position);
        if (valid == 0)
        {
            stoppedEarly = true;
            return false;
        }
        length = valid;
        w0 = RawMemory.getLongPlain(at);
        return true;
    }

    /** @return whether the reading stopped at a frame that did not validate before the end. */
    public boolean stoppedEarly()
    {
        return stoppedEarly;
    }

    /** @return the frame's position. */
    public long position()
    {
        return position;
    }

    /** @return the position after the frame. */
    public long endOfFrame()
    {
        return position + length;
    }

    /** @return the frame's word 0 (filter number, op, units, aux: {@link LogFormat}'s accessors decode it). */
    public long word0()
    {
        return w0;
    }

    /** @return the filter number (0: the log's own frame). */
    public int filter()
    {
        return LogFormat.filter(w0);
    }

    /** @return the op code. */
    public int op()
    {
        return LogFormat.op(w0);
    }

    /** @return the frame's units (1 or 2). */
    public int units()
    {
        return LogFormat.units(w0);
    }

    /** @return the aux field. */
    public int aux()
    {
        return LogFormat.aux(w0);
    }

    /** @return word 1. */
    public long hash()
    {
        return RawMemory.getLongPlain(at + 8);
    }

    /** @return word 2. */
    public long arg()
    {
        return RawMemory.getLongPlain(at + 16);
    }

    /**
     * @param word 3 to 6, in a two-unit frame.
     * @return that word.
     */
    public long arg(final int word)
    {
        if (word < 3 || word > 6 || length < 2 * LogFormat.UNIT)
        {
            throw new IndexOutOfBoundsException("word " + word + " of a " + length + "-byte frame");
        }
        return RawMemory.getLongPlain(at + 8L * word);
    }
}
