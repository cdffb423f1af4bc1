package io.ddf.engine;

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
        return FilterFactory.open(path);
    }

    /**
     * The words of a filter's file that streaming changes, for code that replicates a filter word by word (the
     * Kafka Streams store's changelog). Word {@code i} is the file's bytes {@code [1024 + 8i, 1032 + 8i)}: from the
     * start of the state region (element and duplicate counters, the kind's header state), through the reserved
     * rest of the header page (always zero), to the end of the table; see
     * {@link io.ddf.persistence.FilterFileDescriptor}. Two filters made with the same parameters and seed whose
     * words are equal hold the same state and give the same verdicts.
     *
     * <p>Valid until the filter is closed. Access races with a concurrent {@code stream} like any other plain
     * access to the mapping: copy or apply words while no thread streams into the filter.
     *
     * @param filter a filter made by this engine.
     * @return a flyweight over its mutable words.
     * @throws IllegalArgumentException when the filter was not made by this engine.
     * @throws IllegalStateException    when the filter is closed.
     */
    public static MappedWords mutableWords(final DuplicateFilter filter)
    {
        if (!(filter instanceof MappedFilter))
        {
            throw new IllegalArgumentException("not a filter made by ddf's engine: " + filter);
        }
        return ((MappedFilter)filter).mutableWords();
    }
}
