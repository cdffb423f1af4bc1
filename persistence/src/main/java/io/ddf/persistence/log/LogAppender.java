package io.ddf.persistence.log;

/**
 * One thread's handle on a {@link ChangeLog}: appends as the log does (no lock), and remembers where its last frame
 * ended, so that the thread can force exactly what it appended (group commit: an event loop forces once per round,
 * {@code force()} after the round's appends). Not for several threads at once.
 */
public final class LogAppender
{
    private final ChangeLog log;
    private long end;

    LogAppender(final ChangeLog log)
    {
        this.log = log;
        this.end = log.appended();
    }

    /**
     * A one-unit frame: see {@link ChangeLog#append}.
     *
     * @return its end position.
     */
    public long append(final int filter, final int op, final int aux, final long hash, final long arg)
    {
        end = log.append(filter, op, aux, hash, arg);
        return end;
    }

    /**
     * A two-unit frame: see {@link ChangeLog#append2}.
     *
     * @return its end position.
     */
    public long append2(final int filter, final int op, final int aux, final long hash, final long arg,
        final long arg3, final long arg4, final long arg5, final long arg6)
    {
        end = log.append2(filter, op, aux, hash, arg, arg3, arg4, arg5, arg6);
        return end;
    }

    /**
     * Records that this thread's changes now reach {@code position} (frames appended for it by code that calls
     * the log directly, such as a filter's records).
     *
     * @param position an end position returned by an append.
     */
    public void advanceTo(final long position)
    {
        end = Math.max(end, position);
    }

    /** @return the end of the last frame this thread appended (or the appended position when it was made). */
    public long end()
    {
        return end;
    }

    /**
     * Forces the log through this thread's last frame.
     *
     * @return the forced position.
     * @throws LogUnavailableException when the log cannot be forced.
     */
    public long force()
    {
        return log.force(end);
    }

    /** @return the log. */
    public ChangeLog log()
    {
        return log;
    }
}
