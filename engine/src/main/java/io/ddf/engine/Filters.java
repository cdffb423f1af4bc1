package io.ddf.engine;

import io.ddf.engine.internal.FilterFactory;

import java.nio.file.Path;

/** Entry point for embedders: build a new filter, or open one from its file alone. */
public final class Filters
{
    private Filters()
    {
    }

    /**
     * @param kind the kind of filter to build.
     * @return a builder with that kind's defaults.
     */
    public static FilterBuilder builder(final FilterKind kind)
    {
        return new FilterBuilder(kind);
    }

    /**
     * Opens an existing filter file; kind and parameters come from its header.
     *
     * @param path the filter file.
     * @return the filter, its state as the file holds it.
     * @throws io.ddf.persistence.FilterFileException when the file is missing, foreign, corrupt, truncated,
     *                                                unready or held by another writer.
     */
    public static DuplicateFilter open(final Path path)
    {
        return MappedDuplicateFilter.of(FilterFactory.open(path));
    }

    /**
     * Closes many filters at once, as {@link DuplicateFilter#close()} each, but forcing their files together (one
     * {@code syncfs} per file system on Linux): a daemon with thousands of filters stops in a time that grows with
     * the data changed, not with the number of filters. Every filter is closed even when some fail.
     *
     * @param filters filters made by this class or a {@link FilterBuilder}; closed ones are skipped.
     * @throws io.ddf.persistence.FilterFileException the first failure (e.g. a file truncated from outside).
     */
    public static void closeAll(final java.util.Collection<? extends DuplicateFilter> filters)
    {
        final java.util.List<io.ddf.engine.internal.MappedFilter> mapped = new java.util.ArrayList<>();
        RuntimeException failure = null;
        for (final DuplicateFilter filter : filters)
        {
            if (filter instanceof MappedDuplicateFilter)
            {
                mapped.add(((MappedDuplicateFilter)filter).mapped());
            }
            else
            {
                try
                {
                    filter.close();
                }
                catch (final RuntimeException e)
                {
                    failure = e;
                }
            }
        }
        io.ddf.engine.internal.MappedFilter.closeAll(mapped);
        if (failure != null)
        {
            throw failure;
        }
    }
}
