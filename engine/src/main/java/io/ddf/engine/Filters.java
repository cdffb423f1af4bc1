package io.ddf.engine;

import io.ddf.engine.internal.FilterFactory;
import io.ddf.engine.internal.MappedFilter;

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
     * @param filter a filter made by this engine.
     * @return a view of its mutable words, for code that replicates a filter word by word (see {@link FilterWords}).
     * @throws IllegalArgumentException when the filter was not made by this engine.
     * @throws IllegalStateException    when the filter is closed.
     */
    public static FilterWords mutableWords(final DuplicateFilter filter)
    {
        if (!(filter instanceof MappedDuplicateFilter))
        {
            throw new IllegalArgumentException("not a filter made by ddf's engine: " + filter);
        }
        final MappedFilter mapped = ((MappedDuplicateFilter)filter).machinery();
        mapped.mutableWordCount(); // refuses a closed filter now rather than at the first word
        return new FilterWords(mapped);
    }
}
