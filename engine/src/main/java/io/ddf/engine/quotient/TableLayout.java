package io.ddf.engine.quotient;

/**
 * How rows of k cells of b bits are packed into 64-bit words.
 *
 * <p>Narrow rows (k·b ≤ 64): ⌊64 / (k·b)⌋ rows share a word and no row straddles two words, so one
 * compare-and-swap installs a row atomically. Wide rows (k·b > 64): a row takes whole words of ⌊63 / b⌋ cells
 * each; bit 63 of the row's first word is a lock bit, so a wide row is updated under a short spin lock.
 */
public final class TableLayout
{
    /** Bit 63 of a wide row's first word: the row lock. */
    static final long LOCK_BIT = 1L << 63;

    private final long rows;
    private final int buckets;
    private final int slotBits;
    private final boolean wide;
    private final int rowsPerWord;
    private final int slotsPerWord;
    private final int wordsPerRow;
    private final long words;

    TableLayout(final long rows, final int buckets, final int slotBits)
    {
        this.rows = rows;
        this.buckets = buckets;
        this.slotBits = slotBits;
        final long rowBits = (long)buckets * slotBits;
        this.wide = rowBits > 64;
        if (wide)
        {
            this.rowsPerWord = 0;
            this.slotsPerWord = 63 / slotBits;
            this.wordsPerRow = (buckets + slotsPerWord - 1) / slotsPerWord;
            this.words = rows * wordsPerRow;
        }
        else
        {
            this.rowsPerWord = (int)(64 / rowBits);
            this.slotsPerWord = buckets * rowsPerWord;
            this.wordsPerRow = 1;
            this.words = (rows + rowsPerWord - 1) / rowsPerWord;
        }
    }

    /** @return whether rows span several words under a lock bit. */
    public boolean wide()
    {
        return wide;
    }

    /** @return rows sharing one word (narrow rows), 0 for wide rows. */
    public int rowsPerWord()
    {
        return rowsPerWord;
    }

    /** @return cells per word. */
    public int slotsPerWord()
    {
        return slotsPerWord;
    }

    /** @return words per row (1 for narrow rows). */
    public int wordsPerRow()
    {
        return wordsPerRow;
    }

    /** @return number of 64-bit words holding the rows. */
    public long words()
    {
        return words;
    }

    /** @return the table's size in bytes, rounded up to whole 64-byte cache lines. */
    public long tableBytes()
    {
        return ((words * 8 + 63) / 64) * 64;
    }

    /** @return rows of the table. */
    public long rows()
    {
        return rows;
    }

    /** @return cells per row. */
    public int buckets()
    {
        return buckets;
    }

    /** @return bits per cell. */
    public int slotBits()
    {
        return slotBits;
    }

    /** @return a one-line description. */
    public String describe()
    {
        return wide ?
            wordsPerRow + " words per row, " + slotsPerWord + " cells per word, row lock bit" :
            rowsPerWord + " rows per 64-bit word, lock-free CAS";
    }
}
