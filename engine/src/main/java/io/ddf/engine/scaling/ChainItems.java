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
}
