package io.ddf.engine.internal;

import io.ddf.persistence.platform.AsymmetricFence;
import io.ddf.persistence.FilterFile;
import io.ddf.persistence.FilterFiles;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Closing many {@link MappedFilter}s as one (a daemon's shutdown). */
final class FilterClosing
{
    private FilterClosing()
    {
    }

    /**
     * Closes many filters as one: each as {@link MappedFilter#close()} does (new calls refused, those in flight waited for, with
     * one heavy fence for all), then their files forced together ({@link FilterFiles#closeAll}), so the time grows
     * with the data changed rather than the number of filters.
     *
     * @param filters filters; closed ones are skipped (one another thread is closing is waited for).
     */
    static void closeAll(final Collection<MappedFilter> filters)
    {
        final List<MappedFilter> mine = new ArrayList<>(filters.size());
        for (final MappedFilter filter : filters)
        {
            if (filter.guard().beginClose())
            {
                mine.add(filter);
            }
        }
        try
        {
            final List<FilterFile> files = new ArrayList<>(mine.size());
            if (!mine.isEmpty())
            {
                AsymmetricFence.heavy();
            }
            for (final MappedFilter filter : mine)
            {
                filter.quiesce();
                files.add(filter.file());
            }
            try
            {
                FilterFiles.closeAll(files);
            }
            finally
            {
                mine.forEach(filter -> filter.changes().closeOwnLog());
            }
        }
        finally
        {
            mine.forEach(filter -> filter.guard().closed());
        }
        filters.forEach(filter -> filter.guard().awaitClosed());
    }
}
