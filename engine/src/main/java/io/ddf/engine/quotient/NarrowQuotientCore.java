package io.ddf.engine.quotient;

import io.ddf.engine.memory.MappedWords;

import io.ddf.engine.memory.PackedCells;

/**
 * Quotient filter whose rows fit in one 64-bit word (k · bits per cell ≤ 64), several rows to a word when they
 * fit. Each {@code stream} reads the word, decides, and installs the new word with one compare-and-swap,
 * retrying on conflict: lock-free, and atomic per element. A duplicate that inserts nothing writes nothing.
 *
 * <p>The row's cells are searched all at once, as lanes of one word (SWAR), not one by one: the profile of
 * {@code stream} at 1 Mbit put a third of its samples in the per-cell loops. {@code (v - L) & ~v & H}, with L the
 * lowest and H the highest bit of every lane, is non-zero exactly when some lane of v is zero, and its lowest set
 * bit is in the lowest zero lane (lanes below it are non-zero, so no borrow reaches it from below); a lane equal to
 * the cell is a zero lane of {@code v ^ cell * L}. Same verdicts and same words as the loops.
 */
final class NarrowQuotientCore extends QuotientCore
{
    private final int rowsPerWord;
    private final int rowBits;
    private final long rowMask;
    private final int fifoTailShift;
    /** The lowest bit of each of the row's k lanes. */
    private final long lanesLow;
    /** The highest bit of each of the row's k lanes. */
    private final long lanesHigh;

    NarrowQuotientCore(final int kind, final TableLayout layout, final CellFunction cells, final MappedWords table)
    {
        super(kind, layout, cells, table);
        this.rowsPerWord = layout.rowsPerWord();
        this.rowBits = buckets * slotBits;
        this.rowMask = PackedCells.mask(rowBits);
        this.fifoTailShift = slotBits * (buckets - 1);
        long low = 0;
        for (int i = 0; i < buckets; i++)
        {
            low |= 1L << (i * slotBits);
        }
        this.lanesLow = low;
        this.lanesHigh = low << (slotBits - 1);
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

    @Override
    long touchRow(final long row)
    {
        return table.getLongPlain(rowsPerWord == 1 ? row : row / rowsPerWord);
    }

    /** @return the highest bit of every zero lane at or below the lowest one (see the class comment). */
    private long zeroLanes(final long rowValue)
    {
        return (rowValue - lanesLow) & ~rowValue & lanesHigh;
    }

    boolean find(final long rowValue, final long cell)
    {
        return zeroLanes(rowValue ^ cell * lanesLow) != 0;
    }

    long place(final long rowValue, final long cell, final long hash)
    {
        final long empty = zeroLanes(rowValue);
        if (empty != 0)
        {
            // the first empty cell: its lane starts slotBits - 1 below the lowest set bit
            return rowValue | cell << (Long.numberOfTrailingZeros(empty) - (slotBits - 1));
        }
        return PackedCells.with(rowValue, victim(hash) * slotBits, slotMask, cell);
    }
}
