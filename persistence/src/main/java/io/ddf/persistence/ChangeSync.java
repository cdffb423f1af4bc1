package io.ddf.persistence;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.ReentrantLock;

import static io.ddf.persistence.FilterFileDescriptor.HEADER_LENGTH;
import static io.ddf.persistence.FilterFileDescriptor.LAST_SYNC_OFFSET;

/**
 * Forces a file's changed pages to the device ({@link DirtyPages}), and keeps the header's last sync time (FORMAT.md,
 * "Last sync time"): the time before which every change to the file is on the device.
 *
 * <p>One sync is: take the marks; store in the header the start time of the last sync that completed; force the
 * span from the header page to the last marked page with one {@code msync} (the kernel writes only the pages that
 * are dirty in it, and a single call costs a single device flush: measured on this machine's ext4, forcing 100 dirty
 * pages of a 1 GiB mapping cost 44 ms in one call and 404 ms page by page, and a call over a clean mapping 2.4 ms,
 * which is why an unchanged file is skipped without a call); then remember this sync's start as the last completed.
 * The time stored is one sync behind, so that it is never ahead of what is on the device whatever order the
 * kernel writes the pages in; {@link #sync} with nothing changed brings it up to date, costing the header page only.
 *
 * <p>Syncs of one file hold {@link #lock()}, so a sync that finds the marks taken by another waits for that one's
 * force: a writer's sync returns only once its changes are on the device, whoever forced them.
 */
final class ChangeSync
{
    private final ReentrantLock lock = new ReentrantLock();
    private final DirtyPages dirty;
    private final MappedRegion region;
    private final UnsafeBuffer header;
    private final Path path;
    /** The last sync time as stored in the header page (in memory; on the device with the next force of it). */
    private long recorded;
    /** Start of the last sync that completed: every change made before it is on the device. */
    private long completed;
    private boolean closed;

    /**
     * @param region         the file's mapping.
     * @param path           the file, for messages.
     * @param lastSyncAtOpen the header's last sync time when the file was opened (0 when none).
     */
    ChangeSync(final MappedRegion region, final Path path, final long lastSyncAtOpen)
    {
        this.region = region;
        this.path = path;
        this.dirty = new DirtyPages(region.address(), region.length());
        this.header = new UnsafeBuffer(region.address(), HEADER_LENGTH);
        this.recorded = lastSyncAtOpen;
        this.completed = lastSyncAtOpen;
    }

    /** @return the marks the write paths set. */
    DirtyPages dirtyPages()
    {
        return dirty;
    }

    /** @return the lock every sync of this file holds; closing takes it too, so nothing is forced once unmapped. */
    ReentrantLock lock()
    {
        return lock;
    }

    /**
     * Forces what changed since the last sync.
     *
     * @param stateChanged whether the state region changed, which no mark tracks (the counters: marking them would
     *                     make every thread store into one shared mark); asked under the lock, once the file is
     *                     known to be mapped still.
     * @param now          the time now, epoch milliseconds.
     * @return the pages forced that were marked; 0 when only the header page was forced (the state region, or
     *         bringing the header's time up to date); -1 when nothing needed forcing (no system call made).
     * @throws FilterFileException {@code IO} when msync fails; the marks are kept for the next sync.
     */
    long sync(final BooleanSupplier stateChanged, final long now)
    {
        lock.lock();
        try
        {
            final Pending pending = prepare(stateChanged, now);
            if (pending == null)
            {
                return -1;
            }
            force(pending);
            return pending.span.count();
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * First phase of a sync (the caller holds {@link #lock()}): takes the marks and stores the last completed sync's
     * time in the header.
     *
     * @return what to force, or null when nothing needs it.
     */
    Pending prepare(final BooleanSupplier stateChanged, final long now)
    {
        if (closed)
        {
            return null;
        }
        final DirtyPages.Span span = dirty.take();
        final boolean changed = stateChanged.getAsBoolean() || !span.empty();
        if (!changed && recorded >= completed)
        {
            return null;
        }
        header.putLongVolatile(LAST_SYNC_OFFSET, completed);
        recorded = completed;
        // a sync that forces only the header's time makes nothing newer durable: the last completed stays
        return new Pending(span, changed ? now : completed);
    }

    /**
     * Second phase (the caller holds {@link #lock()}): one msync from the header page through the last marked page.
     */
    void force(final Pending pending)
    {
        final long bytes = pending.span.empty() ? HEADER_LENGTH :
            ((long)pending.span.last() + 1) << DirtyPages.PAGE_SHIFT;
        try
        {
            region.syncPrefix(bytes, path);
        }
        catch (final RuntimeException e)
        {
            dirty.restore(pending.span);
            throw e;
        }
        completed(pending);
    }

    /** The last phase, when the pending sync's pages were forced some other way (syncfs). */
    void completed(final Pending pending)
    {
        completed = Math.max(completed, pending.start);
    }

    /** Puts the marks of a sync that failed back. */
    void failed(final Pending pending)
    {
        dirty.restore(pending.span);
    }

    /** @return the start of the last completed sync, epoch milliseconds (the header's time when none completed). */
    long lastCompleted()
    {
        return completed;
    }

    /** @return whether {@link #close()} ran (the caller holds {@link #lock()}). */
    boolean closedNow()
    {
        return closed;
    }

    /** Stops syncing (the caller holds {@link #lock()}): the file is being unmapped. */
    void close()
    {
        closed = true;
    }

    /**
     * A sync prepared and not yet forced.
     *
     * @param span  the marked pages taken.
     * @param start when it started: every change marked before is in the span.
     */
    record Pending(DirtyPages.Span span, long start)
    {
    }
}
