package io.ddf.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * The filter configurations every contract test runs over: each kind, in each of its layouts, unkeyed and keyed.
 * Each family lists its own in a class of its own ({@code QuotientConfigs}, {@code BloomConfigs}, ...).
 */
final class FilterConfigs
{
    private FilterConfigs()
    {
    }

    /**
     * A named way to build a filter sized for a given capacity into a given file (null for anonymous).
     *
     * @param name                    shown in test names.
     * @param builder                 capacity → builder. The capacity is a number of distinct elements the
     *                                filter should hold without forgetting any (a windowed kind gets a window of
     *                                at least that many elements).
     * @param falseNegativeTolerance  fraction of re-streamed elements that may be judged UNSEEN while the filter is
     *                                far below its capacity: 0, except for kinds that forget at random from the
     *                                first insertion on (the reset-based Bloom filters).
     * @param atomicPerElement        whether {@code stream} is atomic for a whole element, so that threads
     *                                streaming the same new element never both get UNSEEN.
     */
    record Config(String name, LongFunction<FilterBuilder> builder, double falseNegativeTolerance,
        boolean atomicPerElement)
    {
        FilterBuilder build(final long capacity, final Path file)
        {
            return builder.apply(capacity).file(file);
        }

        @Override
        public String toString()
        {
            return name;
        }
    }

    static List<Config> all()
    {
        final List<Config> all = new ArrayList<>(QuotientConfigs.list());
        all.addAll(BloomConfigs.list());
        all.addAll(WindowConfigs.list());
        all.addAll(CuckooConfigs.list());
        return all;
    }
}
