package io.ddf.bench.accuracy.stream;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;

/**
 * A finite stream of elements, read one at a time. Each element has a key in {@code [0, keySpace())} that equals
 * another element's key exactly when the two elements are equal, so the ground truth can work on keys alone.
 */
public interface ElementStream extends AutoCloseable
{
    /** @return whether there is a next element; if so it becomes the current one. */
    boolean next();

    /** @return the current element's key, in {@code [0, keySpace())}. */
    long key();

    /** @return an upper bound on the keys (the alphabet size, or the number of records for a file). */
    long keySpace();

    /**
     * @param filter the filter to stream the current element into.
     * @return the filter's verdict.
     */
    Verdict feed(DuplicateFilter filter);

    @Override
    default void close()
    {
    }
}
