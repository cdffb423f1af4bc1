package io.ddf.engine.scaling;

import io.ddf.engine.bloom.BlockedBloom;
import io.ddf.engine.changelog.ReplayLines;

import java.util.Arrays;

/**
 * A ddf chain's CHAIN_ADD records as entries of a sorted replay ({@link ReplayLines}): an add gives one entry per
 * block of the item (one, or two for the layers of d = 2), its line the block's number in the chain's layers laid
 * end to end (layer 0's blocks first), its payload the item's pattern for that block, both computed at decoding; the
 * entry sets the pattern's bits by plain stores. Bits are ORed, so any order of a block's entries leaves the same
 * bits. The count each layer's records say is kept at decoding, the largest, and stored by {@link #merge} as
 * {@link ChainLanes}' lanes store it (the larger of the file's and the records'). An add to a layer past 2^31 - 1
 * lines of layers is a barrier ({@link ChainReplay} applies it alone).
 */
final class ChainLines implements ReplayLines
{
    private final BloomChain chain;
    /** Per layer, as the chain had them at the last refresh. */
    private BlockedBloom[] blooms = new BlockedBloom[0];
    /** Per layer, its first line; and the lines of all, last. */
    private long[] firsts = {0};
    /** Per layer: the largest count after an add its records said, -1 when none. */
    private long[] counts = new long[0];
    /** Whether a barrier may have grown the chain since the refresh. */
    private boolean stale = true;
    /** The layer of the last entry applied: sorted entries stay in one for long runs. */
    private int current;
    /** The masks of a line's entries, per word of the line (zero between lines). */
    private final long[] words = new long[BlockedBloom.BLOCK_WORDS];

    ChainLines(final BloomChain chain)
    {
        this.chain = chain;
    }

    @Override
    public int take(final int op, final int aux, final long hash, final long arg, final long arg3, final int[] lines,
        final long[] payloads, final int at)
    {
        if (stale || aux >= blooms.length)
        {
            refresh();
        }
        final BlockedBloom bloom = blooms[aux];
        final long first = firsts[aux];
        if (bloom == null || firsts[aux + 1] > Integer.MAX_VALUE)
        {
            return -1;
        }
        final long blocks = bloom.blocks();
        final int entries = bloom.blocksPerItem();
        for (int i = 0; i < entries; i++)
        {
            lines[at + i] = (int)(first + BlockedBloom.block(hash, i, blocks));
            payloads[at + i] = BlockedBloom.pattern(hash, i);
        }
        if (arg > counts[aux])
        {
            counts[aux] = arg;
        }
        return entries;
    }

    /**
     * Gathers the masks of a run of entries of one line (a full sort makes each line's entries one run) into
     * {@link #words}, then reads and writes each of the line's words once ({@link BlockedBloom#orBlock}).
     */
    @Override
    public void apply(final int[] lines, final long[] payloads, final int size)
    {
        int i = 0;
        while (i < size)
        {
            final int line = lines[i];
            final int layer = layer(line);
            final BlockedBloom bloom = blooms[layer];
            final int perBlock = bloom.perBlock();
            do
            {
                BlockedBloom.maskInto(payloads[i], perBlock, words);
                i++;
            }
            while (i < size && lines[i] == line);
            bloom.orBlock(line - firsts[layer], words);
        }
    }

    /** @return the layer of a line: the last one's, or found from the first (sorted entries stay in one long). */
    private int layer(final int line)
    {
        int layer = current;
        if (line < firsts[layer] || line >= firsts[layer + 1])
        {
            layer = 0;
            while (line >= firsts[layer + 1])
            {
                layer++;
            }
            current = layer;
        }
        return layer;
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
        stale = true;
    }

    /** The chain's layers as they are now (a barrier grows the chain, and may map its file anew). */
    private void refresh()
    {
        final int layers = chain.layerCount();
        blooms = new BlockedBloom[layers];
        firsts = new long[layers + 1];
        for (int i = 0; i < layers; i++)
        {
            final ChainLayer layer = chain.layer(i);
            blooms[i] = layer instanceof DdfBlockedLayer blocked ? blocked.bloom() : null;
            firsts[i + 1] = firsts[i] + (blooms[i] == null ? 0 : blooms[i].blocks());
        }
        final int from = counts.length;
        if (from < layers)
        {
            counts = Arrays.copyOf(counts, layers);
            Arrays.fill(counts, from, layers, -1);
        }
        current = 0;
        stale = false;
    }
}
