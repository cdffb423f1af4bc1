package io.ddf.engine.quotient;

import io.ddf.engine.memory.MappedWords;

import io.ddf.engine.memory.LockWord;
import io.ddf.engine.memory.PackedCells;

/**
 * Quotient filter whose rows are wider than a word (k · bits per cell &gt; 64): a row takes whole words of
 * ⌊63 / b⌋ cells each, and bit 63 of its first word is a {@link LockWord} bit. {@code stream} takes the row's
 * lock with a compare-and-swap, decides and updates the row, then releases it with an ordered store: atomic per
 * element, and blocking only other threads on the same row. A process killed while holding a row lock leaves the
 * bit set and the row possibly half-updated (a FIFO shift cut short: at worst one cell lost or duplicated, every
 * cell still a valid value); {@link #recover()} clears the bits when the file is reopened (its writer lock
 * guarantees no one else holds one).
 */
final class WideQuotientCore extends QuotientCore
{
    private final int wordsPerRow;
    private final int slotsPerWord;

    WideQuotientCore(final int kind, final TableLayout layout, final CellFunction cells, final MappedWords table)
    {
        super(kind, layout, cells, table);
        this.wordsPerRow = layout.wordsPerRow();
        this.slotsPerWord = layout.slotsPerWord();
    }

    /** Recovery after a crash: clears every row lock bit left set. */
    @Override
    public void recover()
    {
        for (long base = 0; base < table.words(); base += wordsPerRow)
        {
            LockWord.recoverRelease(table, base, TableLayout.LOCK_BIT);
        }
    }

    @Override
    boolean streamRow(final long row, final long cell, final long hash)
    {
        final long base = row * wordsPerRow;
        LockWord.lockAcquire(table, base, TableLayout.LOCK_BIT);
        final boolean duplicate = find(base, cell);
        if (!duplicate || insertOnDuplicate)
        {
            if (fifo)
            {
                for (int i = 0; i < buckets - 1; i++)
                {
                    setSlot(base, i, getSlot(base, i + 1));
                }
                setSlot(base, buckets - 1, cell);
            }
            else
            {
                int slot = firstEmpty(base);
                if (slot < 0)
                {
                    slot = victim(hash);
                }
                setSlot(base, slot, cell);
            }
        }
        LockWord.unlockRelease(table, base, table.getLongPlain(base), TableLayout.LOCK_BIT);
        return duplicate;
    }

    @Override
    boolean containsRow(final long row, final long cell)
    {
        final long base = row * wordsPerRow;
        LockWord.lockAcquire(table, base, TableLayout.LOCK_BIT);
        final boolean duplicate = find(base, cell);
        LockWord.unlockRelease(table, base, table.getLongPlain(base), TableLayout.LOCK_BIT);
        return duplicate;
    }

    @Override
    long touchRow(final long row)
    {
        return table.getLongPlain(row * wordsPerRow);
    }

    private boolean find(final long base, final long cell)
    {
        for (int i = 0; i < buckets; i++)
        {
            if (getSlot(base, i) == cell)
            {
                return true;
            }
        }
        return false;
    }

    private int firstEmpty(final long base)
    {
        for (int i = 0; i < buckets; i++)
        {
            if (getSlot(base, i) == 0)
            {
                return i;
            }
        }
        return -1;
    }

    private long getSlot(final long base, final int slot)
    {
        final int shift = (slot % slotsPerWord) * slotBits;
        return PackedCells.get(table.getLongPlain(base + slot / slotsPerWord), shift, slotMask);
    }

    private void setSlot(final long base, final int slot, final long value)
    {
        final long index = base + slot / slotsPerWord;
        final int shift = (slot % slotsPerWord) * slotBits;
        table.putLongPlain(index, PackedCells.with(table.getLongPlain(index), shift, slotMask, value));
    }
}
