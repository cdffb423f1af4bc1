package io.ddf.engine.spi;

/**
 * A filter kind's algorithm over its region of the table, working on 64-bit element hashes.
 *
 * <p>{@code stream} decides and updates as one step. Each kind's Javadoc says what a concurrent {@code stream}
 * guarantees: one compare-and-swap per update for the single-word kinds; for kinds whose update spans several
 * words, each word's update is atomic but the element's update as a whole is not isolated from other threads'.
 */
public interface FilterCore
{
    /**
     * @param hash the element's 64-bit hash.
     * @return true when judged DUPLICATE; the state now records the element as the kind's algorithm says.
     */
    boolean stream(long hash);

    /**
     * @param hash the element's 64-bit hash.
     * @return whether {@link #stream} would answer DUPLICATE now; nothing changes.
     */
    boolean contains(long hash);

    /**
     * Starts the loads that {@link #stream} of this hash will need (a plain read of its row), changing nothing, so
     * that a batch can touch its elements' rows before updating them and their cache misses overlap. Kinds that do
     * not say where their state is return 0 at no cost.
     *
     * @param hash the element's 64-bit hash.
     * @return a value read (for the caller to sink, so that the read is not optimised away), or 0.
     */
    default long touch(final long hash)
    {
        return 0;
    }

    /**
     * Empties the filter: used by the queuing construction to recycle its oldest subfilter. Not atomic with
     * respect to concurrent {@code stream} calls on this core.
     */
    void clear();

    /**
     * Repairs what a process killed mid-update can leave behind (such as a row lock bit), when a file is reopened.
     * The caller holds the file's writer lock, so no other process can be using it.
     */
    default void recover()
    {
    }

    /**
     * Repairs what a power cut can leave (each page of the table from a different moment, FORMAT.md), before the
     * change log is replayed onto it: at least what {@link #recover()} repairs. Kinds whose structure links words on
     * different pages check and rebuild those links here even when no update was half made.
     */
    default void recoverTorn()
    {
        recover();
    }

    /**
     * @return whether the state splits into partitions such that an element's update touches only its own
     *         partition and its verdict depends only on that partition's history: then handlers that own
     *         disjoint partitions, each taking its elements in stream order, reproduce the sequential verdicts.
     */
    default boolean partitioned()
    {
        return false;
    }

    /**
     * @param hash an element's hash.
     * @return its partition (a row, for the quotient filters); 0 when the kind is not partitioned.
     */
    default long partition(final long hash)
    {
        return 0;
    }
}
