package io.ddf.engine.scaling;

import io.ddf.engine.bloom.BlockedBloom;
import io.ddf.engine.changelog.KindOps;
import io.ddf.engine.changelog.ReplayLanes;
import io.ddf.engine.changelog.ReplayLines;
import io.ddf.engine.changelog.ReplayTarget;

import java.util.Arrays;

/**
 * A ddf chain's CHAIN_ADD records replayed in parallel lanes ({@link ReplayLanes}): lane p of n sets the item's bits
 * in the blocks of part p ({@link BlockedBloom#part}: whole pages), by plain stores (it is their only writer), and
 * keeps the largest count each layer's records say; its merge stores a layer's count as the sequential replay leaves
 * it (the larger of the file's and the records'). CHAIN_GROW, and an add to a layer the file does not have, are
 * barriers ({@link ChainReplay} applies them, or refuses the log).
 */
final class ChainLanes implements ReplayLanes
{
    private final BloomChain chain;

    private ChainLanes(final BloomChain chain)
    {
        this.chain = chain;
    }

    /**
     * @param chain the chain, its monitor held.
     * @return what replays its records ({@link ChainReplay}), with lanes unless its layers are not ddf's blocked ones
     *         (RedisBloom's bits span the table).
     */
    static ReplayTarget target(final BloomChain chain)
    {
        return ReplayTarget.of(frame -> ChainReplay.replay(chain, frame),
            (op, aux, hash) -> ChainReplay.touch(chain, op, aux, hash),
            chain.layerCount() > 0 && chain.layer(0) instanceof DdfBlockedLayer ? new ChainLanes(chain) : null);
    }

    @Override
    public boolean local(final int op, final int aux, final int units)
    {
        return op == KindOps.CHAIN_ADD && aux < chain.layerCount() && chain.layer(aux) instanceof DdfBlockedLayer;
    }

    @Override
    public ReplayLines lines()
    {
        return new ChainLines(chain);
    }

    @Override
    public ReplayLane lane(final int index, final int count)
    {
        return new Lane(index, count);
    }

    private final class Lane implements ReplayLane
    {
        private final int part;
        private final int parts;
        /** Per layer: the largest count after an add its records said, -1 when none. */
        private long[] counts = new long[0];

        Lane(final int part, final int parts)
        {
            this.part = part;
            this.parts = parts;
        }

        @Override
        public long touch(final int op, final int aux, final long hash)
        {
            return ((DdfBlockedLayer)chain.layer(aux)).touchPart(hash, part, parts);
        }

        @Override
        public void apply(final int op, final int aux, final long hash, final long arg, final long arg3)
        {
            ((DdfBlockedLayer)chain.layer(aux)).addPart(hash, part, parts);
            if (aux >= counts.length)
            {
                final int from = counts.length;
                counts = Arrays.copyOf(counts, aux + 1);
                Arrays.fill(counts, from, counts.length, -1);
            }
            if (arg > counts[aux])
            {
                counts[aux] = arg;
            }
        }

        @Override
        public void merge()
        {
            for (int i = 0; i < counts.length; i++)
            {
                if (counts[i] >= 0)
                {
                    final ChainFile.Segment segment = chain.layer(i).segment();
                    segment.size(Math.max(segment.size(), counts[i]));
                    counts[i] = -1;
                }
            }
        }
    }
}
