package io.ddf.engine.internal;

import io.ddf.persistence.FilterFile;
import io.ddf.persistence.FilterFiles;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * How a {@link MappedFilter}'s changes reach the device: its file's tracked pages forced, and its state region with
 * them only when the counters moved since the last sync.
 */
final class FilterSync
{
    private final FilterFile file;
    private final FilterCounters counters;
    private final SyncMode mode;
    /** The elements count the last sync saw (-1: sync the state region at the next sync), written under its lock. */
    private volatile long syncedElements = -1;
    /** Whether the state region changed since the last sync: the counters moved (asked under the sync's lock). */
    private final BooleanSupplier stateChanged = this::countersMoved;

    FilterSync(final FilterFile file, final FilterCounters counters, final SyncMode mode)
    {
        this.file = file;
        this.counters = counters;
        this.mode = mode;
    }

    SyncMode mode()
    {
        return mode;
    }

    /**
     * Forces the pages marked since the last sync (see {@link io.ddf.persistence.FileSync#syncChanges}); the
     * filter's mode tracks them (not {@link SyncMode#UNTRACKED}).
     *
     * @return the changed pages forced (0: the header page only), or -1 when nothing needed forcing.
     */
    long syncChanges()
    {
        try
        {
            return file.sync().syncChanges(stateChanged);
        }
        catch (final RuntimeException e)
        {
            syncedElements = -1; // the state region too, next time
            throw e;
        }
    }

    /**
     * Forces what changed in many filters since their last syncs, as {@link MappedFilter#sync()} does each, but
     * together: when enough of them changed, with one write-back of their file system instead of a device flush per
     * filter ({@link FilterFiles#syncChanges}). Untracked filters (policy no) are skipped.
     *
     * @param filters the filters.
     * @param failed  gets each filter whose sync failed (its pages stay marked for the next sync).
     * @return what was forced.
     */
    static FilterFiles.Synced syncAll(final List<MappedFilter> filters,
        final BiConsumer<MappedFilter, RuntimeException> failed)
    {
        final List<FilterFile> files = new ArrayList<>(filters.size());
        final List<BooleanSupplier> states = new ArrayList<>(filters.size());
        final Map<FilterFile, MappedFilter> byFile = new IdentityHashMap<>();
        for (final MappedFilter filter : filters)
        {
            final FilterSync sync = filter.filterSync();
            if (sync.mode != SyncMode.UNTRACKED)
            {
                files.add(sync.file);
                states.add(sync.stateChanged);
                byFile.put(sync.file, filter);
            }
        }
        return FilterFiles.syncChanges(files, states, (file, e) ->
        {
            final MappedFilter filter = byFile.get(file);
            filter.filterSync().syncedElements = -1; // the state region too, next time
            failed.accept(filter, e);
        });
    }

    /** Under the file's sync lock, the file mapped: whether the counters moved since the last sync. */
    private boolean countersMoved()
    {
        final long elements = counters.elements();
        if (elements == syncedElements)
        {
            return false;
        }
        syncedElements = elements;
        return true;
    }
}
