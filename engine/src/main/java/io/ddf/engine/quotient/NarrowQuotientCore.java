package io.ddf.engine.quotient;

import io.ddf.engine.memory.MappedWords;

import io.ddf.engine.memory.PackedCells;

/**
 * Quotient filter whose rows fit in one 64-bit word (k · bits per cell ≤ 64), several rows to a word when they
 * fit. Each {@code stream} reads the word, decides, and installs the new word with one compare-and-swap,
 * retrying on conflict: lock-free, and atomic per element. A duplicate that inserts nothing writes nothing.
 */
final class NarrowQuotientCore extends QuotientCore
{
    private final int rowsPerWord;
    private final int rowBits;
    private final long rowMask;
    private final int fifoTailShift;

    NarrowQuotientCore(final int kind, final TableLayout layout, final CellFunction cells, final MappedWords table)
    {
        super(kind, layout, cells, table);
        this.rowsPerWord = layout.rowsPerWord();
        this.rowBits = buckets * slotBits;
        this.rowMask = PackedCells.mask(rowBits);
        this.fifoTailShift = slotBits * (buckets - 1);
    }

    @Override
    boolean streamRow(final long row, final long cell, final long hash)
    {
        final long wordIndex = rowsPerWord == 1 ? row : row / rowsPerWord;
        final int shift = (int)(row - wordIndex * rowsPerWord) * rowBits;
        while (true)
        {
            final long word = table.getLongVolatile(wordIndex);
            final long rowValue = PackedCells.get(word, shift, rowMask);
            final boolean duplicate = find(rowValue, cell);
            if (duplicate && !insertOnDuplicate)
            {
                return true;
            }
            final long newRow = fifo ? (rowValue >>> slotBits) | (cell << fifoTailShift) : place(rowValue, cell, hash);
            final long newWord = PackedCells.with(word, shift, rowMask, newRow);
            if (newWord == word || table.compareAndSetLong(wordIndex, word, newWord))
            {
                return duplicate;
            }
        }
    }

    @Override
    boolean containsRow(final long row, final long cell)
    {
        final long wordIndex = rowsPerWord == 1 ? row : row / rowsPerWord;
        final int shift = (int)(row - wordIndex * rowsPerWord) * rowBits;
        return find(PackedCells.get(table.getLongVolatile(wordIndex), shift, rowMask), cell);
    }

    private boolean find(final long rowValue, final long cell)
    {
        for (int i = 0, shift = 0; i < buckets; i++, shift += slotBits)
        {
            if (PackedCells.get(rowValue, shift, slotMask) == cell)
            {
                return true;
            }
        }
        return false;
    }

    private long place(final long rowValue, final long cell, final long hash)
    {
        int slot = -1;
        for (int i = 0, shift = 0; i < buckets; i++, shift += slotBits)
        {
            if (PackedCells.get(rowValue, shift, slotMask) == 0)
            {
                slot = i;
                break;
            }
        }
        if (slot < 0)
        {
            slot = victim(hash);
        }
        final int shift = slot * slotBits;
        return PackedCells.with(rowValue, shift, slotMask, cell);
    }
}
