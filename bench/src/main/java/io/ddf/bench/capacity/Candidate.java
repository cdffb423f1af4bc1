package io.ddf.bench.capacity;

/** A filter the capacity run measures: adds, membership, and the memory it takes now. */
interface Candidate extends AutoCloseable
{
    /** @return the label in tables and plots. */
    String name();

    /**
     * @param item an item.
     * @return true when it was judged new (and added).
     */
    boolean add(long item);

    /**
     * @param item an item.
     * @return true when it answers "present".
     */
    boolean contains(long item);

    /** @return bytes of memory (or file) the filter takes at this moment. */
    long bytes();

    @Override
    void close();
}
