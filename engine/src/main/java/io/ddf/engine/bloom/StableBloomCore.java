package io.ddf.engine.bloom;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.PackedCells;
import io.ddf.engine.spi.FilterCore;

/**
 * Stable Bloom Filter (Deng and Rafiei, SIGMOD 2006): m cells of d bits, Max = 2^d − 1, K positions per element.
 * For each arrival: DUPLICATE iff all K cells are non-zero; then P consecutive cells from one random start (wrapping
 * round) are decremented by 1, not below 0; then the K cells are set to Max. Every arrival does this, duplicate or
 * not, as in the original. The random start is drawn from the element's hash and a salt, so a stream replays
 * identically.
 *
 * <p>Concurrency: each word (of ⌊64 / d⌋ cells) is updated by one compare-and-swap, so no decrement or set is
 * lost; an element's K cells and P decrements are separate words, not isolated from other threads' updates.
 */
final class StableBloomCore implements FilterCore
{
    private final MappedWords table;
    private final PackedCells layout;
    private final long m;
    private final int k;
    private final long p;

    StableBloomCore(final MappedWords table, final PackedCells layout, final int k, final long p)
    {
        this.table = table;
        this.layout = layout;
        this.m = layout.cells();
        this.k = k;
        this.p = p;
    }

    @Override
    public boolean stream(final long hash)
    {
        final boolean duplicate = contains(hash);
        decrement(Mix.reduce(Mix.mix64(hash ^ Hashes.RESET_SALT), m));
        final long step = Hashes.step(hash);
        for (int i = 0; i < k; i++)
        {
            setMax(Hashes.position(hash, step, i, m));
        }
        return duplicate;
    }

    @Override
    public boolean contains(final long hash)
    {
        final long step = Hashes.step(hash);
        for (int i = 0; i < k; i++)
        {
            if (cell(Hashes.position(hash, step, i, m)) == 0)
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public void clear()
    {
        table.clear();
    }

    /**
     * @param index a cell index.
     * @return the cell's value.
     */
    long cell(final long index)
    {
        return (table.getLongVolatile(layout.wordOf(index)) >>> layout.shiftOf(index)) & layout.cellMask();
    }

    /** @return the number of cells. */
    long cells()
    {
        return m;
    }

    /**
     * Decrements P consecutive cells from {@code start}, wrapping at m, a word's worth of cells per
     * compare-and-swap.
     */
    private void decrement(final long start)
    {
        final int perWord = layout.cellsPerWord();
        final int bits = layout.cellBits();
        final long mask = layout.cellMask();
        long remaining = p;
        long cell = start;
        while (remaining > 0)
        {
            final long wordIndex = layout.wordOf(cell);
            final int first = (int)(cell - wordIndex * perWord);
            final int count = (int)Math.min(remaining, perWord - first);
            while (true)
            {
                final long word = table.getLongVolatile(wordIndex);
                long updated = word;
                for (int j = first, shift = first * bits; j < first + count; j++, shift += bits)
                {
                    if (PackedCells.get(word, shift, mask) != 0)
                    {
                        updated -= 1L << shift;
                    }
                }
                if (updated == word || table.compareAndSetLong(wordIndex, word, updated))
                {
                    break;
                }
            }
            remaining -= count;
            cell += count;
            if (cell == m)
            {
                cell = 0;
            }
        }
    }

    private void setMax(final long index)
    {
        final long wordIndex = layout.wordOf(index);
        final long bits = layout.cellMask() << layout.shiftOf(index);
        while (true)
        {
            final long word = table.getLongVolatile(wordIndex);
            if ((word & bits) == bits || table.compareAndSetLong(wordIndex, word, word | bits))
            {
                return;
            }
        }
    }
}
