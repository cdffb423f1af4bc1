package io.ddf.engine.quotient;

import io.ddf.engine.memory.PackedCells;

/**
 * How the quotient table's rows of k cells of b bits are packed into 64-bit words ({@link PackedCells}, with one
 * reserved bit in a wide row's words for the lock).
 *
 * <p>Narrow rows (k·b ≤ 64): ⌊64 / (k·b)⌋ rows share a word and no row straddles two words, so one
 * compare-and-swap installs a row atomically. Wide rows (k·b > 64): a row takes whole words of ⌊63 / b⌋ cells
 * each; bit 63 of the row's first word is a lock bit, so a wide row is updated under a short spin lock.
 */
public final class TableLayout
{
    /** Bit 63 of a wide row's first word: the row lock (a {@link io.ddf.engine.memory.LockWord} bit). */
    static final long LOCK_BIT = 1L << 63;

    private final PackedCells cells;

    TableLayout(final long rows, final int buckets, final int slotBits)
    {
        this.cells = new PackedCells(rows, buckets, slotBits, 1); // wide rows leave bit 63 to the lock
    }

    /** @return whether rows span several words under a lock bit. */
    public boolean wide()
    {
        return cells.wide();
    }

    /** @return rows sharing one word (narrow rows), 0 for wide rows. */
    public int rowsPerWord()
    {
        return cells.rowsPerWord();
    }

    /** @return cells per word. */
    public int slotsPerWord()
    {
        return cells.cellsPerWord();
    }

    /** @return words per row (1 for narrow rows). */
    public int wordsPerRow()
    {
        return cells.wordsPerRow();
    }

    /** @return number of 64-bit words holding the rows. */
    public long words()
    {
        return cells.words();
    }

    /** @return the table's size in bytes, rounded up to whole 64-byte cache lines. */
    public long tableBytes()
    {
        return ((words() * 8 + 63) / 64) * 64;
    }

    /** @return rows of the table. */
    public long rows()
    {
        return cells.rows();
    }

    /** @return cells per row. */
    public int buckets()
    {
        return cells.cellsPerRow();
    }

    /** @return bits per cell. */
    public int slotBits()
    {
        return cells.cellBits();
    }

    /**
     * The structural invariant of a quotient table: every bit outside a cell is zero (the bits of a word that hold
     * no row or cell, and the padding words after the rows), except a wide row's lock bit, which a crash mid-update
     * can leave set and {@code recover()} clears. Random bytes written over a table break it almost surely unless
     * the cells fill their words exactly; cells themselves may hold any value.
     *
     * @param region the table, {@link #tableBytes()} long or longer; read only.
     * @throws IllegalArgumentException naming the first word with stray bits.
     */
    public void checkUnusedBitsZero(final io.ddf.engine.memory.MappedWords region)
    {
        final long stray = cells.firstStrayWord(region, LOCK_BIT);
        if (stray >= 0)
        {
            throw new IllegalArgumentException("table word " + stray + (stray >= cells.words() ?
                " (padding after the rows)" : "") + " has bits set outside its cells: 0x" +
                Long.toHexString(region.getLongPlain(stray)));
        }
    }

    /** @return a one-line description. */
    public String describe()
    {
        return wide() ?
            wordsPerRow() + " words per row, " + slotsPerWord() + " cells per word, row lock bit" :
            rowsPerWord() + " rows per 64-bit word, lock-free CAS";
    }
}
