package io.ddf.engine.scaling;

import io.ddf.engine.changelog.KindOps;
import io.ddf.persistence.log.LogReader;

/**
 * Replays a Bloom chain's records onto its file as a power cut left it (FORMAT-LOG.md: CHAIN_GROW, CHAIN_ADD),
 * idempotently: a layer is appended only when missing, bits are set, a layer's count becomes the larger of what the
 * file holds and what the record says it was after the add.
 */
final class ChainReplay
{
    private ChainReplay()
    {
    }

    /**
     * Touches the block a CHAIN_ADD will set (ddf's blocked layers: {@link ChainLayer#touch}), when its layer exists
     * already: the record-by-record replay's ({@code ddf.replay.threads} 0, and RedisBloom's layers, which touch
     * nothing).
     *
     * @param chain the chain, its monitor held.
     * @param op    the record's op.
     * @param index its aux: the layer.
     * @param hash  its word 1: hash {@code a}.
     * @return the word read (0 when none).
     */
    static long touch(final BloomChain chain, final int op, final int index, final long hash)
    {
        return op == KindOps.CHAIN_ADD && index < chain.layerCount() ? chain.layer(index).touch(hash) : 0;
    }

    /**
     * @param chain the chain, its monitor held.
     * @param frame the reader at one of its records.
     */
    static void replay(final BloomChain chain, final LogReader frame)
    {
        switch (frame.op())
        {
            case KindOps.CHAIN_GROW ->
            {
                final int index = frame.aux();
                if (index == chain.layerCount())
                {
                    chain.appendLayer(frame.hash(), Double.longBitsToDouble(frame.arg()));
                }
                else if (index > chain.layerCount())
                {
                    throw new IllegalStateException(chain.path() + ": the log grows layer " + index + " but the file has " +
                        chain.layerCount());
                }
            }
            case KindOps.CHAIN_ADD ->
            {
                final int index = frame.aux();
                if (index >= chain.layerCount())
                {
                    throw new IllegalStateException(chain.path() + ": the log adds to layer " + index + " but the file " +
                        "has " + chain.layerCount());
                }
                final ChainLayer layer = chain.layer(index);
                final long before = layer.size();
                layer.add(frame.hash(), frame.units() == 2 ? frame.arg(3) : 0);
                // the count as it was after the add, never counted twice (the image may hold it already)
                layer.segment().size(Math.max(before, frame.arg()));
            }
            default -> throw new IllegalStateException(chain.path() + ": record op " + frame.op() + " at log position " +
                frame.position() + " is not one a Bloom chain writes");
        }
    }
}
