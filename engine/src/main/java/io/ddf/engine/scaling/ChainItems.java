package io.ddf.engine.scaling;

import org.agrona.DirectBuffer;

/**
 * A chain's adds in two steps, so that a batch can hash and touch its items before it adds the first (the daemon's
 * pipelined BF.ADDs, ingest's {@code ChainAdds}): their cache misses overlap instead of coming one after the other. At
 * 10^9 an add alone waits for its line (bench/scripts/ChainTouchProbe.java: 560–620 ns of CPU per add one by one,
 * 230–260 touched 16 ahead). {@link #first} and {@link #second} hash as {@link BloomChain#add(DirectBuffer, int, int)}
 * does; {@link #add} is that add once hashed.
 */
public final class ChainItems
{
    private ChainItems()
    {
    }

    /**
     * @param chain  the chain.
     * @param item   the item's bytes.
     * @param offset of the first.
     * @param length how many.
     * @return its first hash value.
     */
    public static long first(final BloomChain chain, final DirectBuffer item, final int offset, final int length)
    {
        return chain.scheme().first(item, offset, length);
    }

    /**
     * @param chain  the chain.
     * @param item   the item's bytes.
     * @param offset of the first.
     * @param length how many.
     * @param first  its {@link #first} value.
     * @return its second hash value.
     */
    public static long second(final BloomChain chain, final DirectBuffer item, final int offset, final int length,
        final long first)
    {
        return chain.scheme().second(item, offset, length, first);
    }

    /**
     * Starts the cache miss of the line an add of the item would set in the newest layer: plain reads, no store.
     * Layers whose item spans many lines touch nothing.
     *
     * @param chain the chain.
     * @param first the item's {@link #first} value.
     * @return the words read, summed (so that the reads are not optimised away).
     */
    public static long touch(final BloomChain chain, final long first)
    {
        return chain.layer(chain.layerCount() - 1).touch(first);
    }

    /**
     * @param chain  the chain.
     * @param first  the item's {@link #first} value.
     * @param second its {@link #second} value.
     * @return what the add did, as {@link BloomChain#add(DirectBuffer, int, int)}.
     */
    public static AddResult add(final BloomChain chain, final long first, final long second)
    {
        return chain.addHashed(first, second);
    }

    /** Told each add's result, in order ({@link #addAll}). */
    @FunctionalInterface
    public interface Results
    {
        /** @param result what the next add did. */
        void result(AddResult result);
    }

    /**
     * Adds items hashed already, in order, as that many {@link #add} calls would (the same results, the same change
     * log records), under the chain's monitor taken once for them all rather than once per add (the raw feed's
     * batches); in groups of {@code group}, each group's lines in the newest layer touched before its first add, so
     * that their misses overlap. Stops after the first {@link AddResult#FULL}: a full NONSCALING chain refuses the
     * rest as well. On a throw (the add's change log record could not be appended) the results told are those of
     * the adds before it.
     *
     * @param chain   the chain.
     * @param first   the items' {@link #first} values, from index 0.
     * @param second  their {@link #second} values.
     * @param count   how many.
     * @param group   adds touched together (at least 1).
     * @param results told each result.
     * @return the words the touches read, summed (so that the reads are not optimised away).
     */
    public static long addAll(final BloomChain chain, final long[] first, final long[] second, final int count,
        final int group, final Results results)
    {
        long sum = 0;
        synchronized (chain) // addHashed's monitor: taken here once, its own entries are then reentrant
        {
            for (int from = 0; from < count; from += group)
            {
                final int to = Math.min(count, from + group);
                final ChainLayer newest = chain.layer(chain.layerCount() - 1);
                for (int i = from; i < to; i++)
                {
                    sum += newest.touch(first[i]);
                }
                for (int i = from; i < to; i++)
                {
                    final AddResult result = chain.addHashed(first[i], second[i]);
                    results.result(result);
                    if (result == AddResult.FULL)
                    {
                        return sum;
                    }
                }
            }
        }
        return sum;
    }
}
