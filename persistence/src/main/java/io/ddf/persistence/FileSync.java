package io.ddf.persistence;

import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * What of an open filter file is on the device: the pages changed since the last sync ({@link DirtyPages}), forced
 * by {@link #syncChanges}, and the time before which every change is durable ({@link #durableSince}). The file's
 * handle ({@link FilterFile#sync()}) holds one; a sync policy (the engine's {@code ddf-sync} thread, or a writer
 * under {@code always}) drives it.
 */
public final class FileSync
{
    private final FilterFile file;
    private final MappedRegion region;
    private final Path path;
    /** Whether the file may be tracked: named and open for writing. */
    private final boolean trackable;
    private final long lastSyncAtOpen;
    /** Durable as of: the header's last sync time, or when opening found it sealed, or when it was created. */
    private long durableAtOpen;
    private volatile ChangeSync changeSync;

    FileSync(final FilterFile file, final MappedRegion region, final Path path, final boolean trackable,
        final long lastSyncAtOpen)
    {
        this.file = file;
        this.region = region;
        this.path = path;
        this.trackable = trackable;
        this.lastSyncAtOpen = lastSyncAtOpen;
        this.durableAtOpen = lastSyncAtOpen;
    }

    /**
     * Starts tracking which pages change, so that {@link #syncChanges} forces only those. Idempotent.
     *
     * @return the marks the write paths must set after each store into the mapping ({@link DirtyPages#mark}), or
     *         null for a file that is never synced (anonymous, or open for reading only).
     */
    public DirtyPages trackChanges()
    {
        synchronized (file)
        {
            file.checkOpen();
            if (!trackable)
            {
                return null;
            }
            if (changeSync == null)
            {
                changeSync = new ChangeSync(region, path, durableAtOpen);
            }
            return changeSync.dirtyPages();
        }
    }

    /**
     * Forces what changed since the last sync to the device: one msync over the pages marked since (see
     * {@link DirtyPages}), with the header's last sync time; nothing at all when nothing changed. Safe from any
     * thread, concurrently with writers; returns once every change marked before the call is on the device, even
     * when another thread's sync forced it.
     *
     * @param stateChanged whether the state region changed since the last sync (no mark tracks it); asked while the
     *                     file is held mapped, so it may read the mapping.
     * @return the marked pages forced (0: only the header page), or -1 when nothing needed forcing, the file is not
     *         tracked ({@link #trackChanges()}) or it is closed.
     * @throws FilterFileException {@code IO} when msync fails (the pages stay marked for the next sync), {@code
     *                             TRUNCATED} when the file was truncated from outside.
     */
    public long syncChanges(final BooleanSupplier stateChanged)
    {
        final ChangeSync sync = changeSync;
        if (sync == null)
        {
            return -1;
        }
        sync.lock().lock();
        try
        {
            if (sync.closedNow())
            {
                return -1;
            }
            file.checkLength();
            return sync.sync(stateChanged, System.currentTimeMillis());
        }
        finally
        {
            sync.lock().unlock();
        }
    }

    /**
     * @return the time, epoch milliseconds, before which every change acknowledged was on the device as of the last
     *         completed sync (of {@link #syncChanges}, {@link FilterFile#flush} or opening a cleanly closed file); the
     *         header's value at open when none completed since; 0 when unknown.
     */
    public long durableSince()
    {
        final ChangeSync sync = changeSync;
        return sync != null ? sync.lastCompleted() : durableAtOpen;
    }

    /**
     * @return the last sync time the header held when the file was opened: for a file closed cleanly, when its
     *         close began; after a crash or power cut, the time before which every change was on the device; 0 when
     *         no build recorded one (a file older than the field) or for a file created by this handle.
     */
    public long lastSyncAtOpen()
    {
        return lastSyncAtOpen;
    }

    /** @return the change tracking ({@link FilterFiles#syncChanges}), or null before {@link #trackChanges}. */
    ChangeSync changes()
    {
        return changeSync;
    }

    /** @param millis the time as of which the file is durable before any sync (found sealed, or just created). */
    void durableAt(final long millis)
    {
        durableAtOpen = millis;
    }

    /** @param start when a whole-file force (a flush) began: every change before it is durable. */
    void forced(final long start)
    {
        final ChangeSync sync = changeSync;
        if (sync != null)
        {
            sync.completed(new ChangeSync.Pending(DirtyPages.Span.NONE, start));
        }
    }

    /** Ends syncing before the unmapping: waits for a sync in progress, and makes later ones do nothing. */
    void stop()
    {
        final ChangeSync sync = changeSync;
        if (sync != null)
        {
            sync.lock().lock();
            try
            {
                sync.close();
            }
            finally
            {
                sync.lock().unlock();
            }
        }
    }
}
