package io.ddf.engine.memory;


/**
 * The one way cells of b bits are packed into 64-bit words: the layout of a table of rows of k cells, and the bit
 * arithmetic to read and replace a cell inside a word.
 *
 * <pre>
 * narrow rows (k·b ≤ 64): ⌊64 / (k·b)⌋ rows per word, none straddling two words (one CAS updates a row)
 *   word: | spare | row r+2 | row r+1 | row r | ;  row: | cell k−1 | … | cell 1 | cell 0 |   (cell 0 lowest)
 * wide rows (k·b &gt; 64): a row takes whole words of ⌊(64 − reserved) / b⌋ cells each
 *   word: | reserved bits (e.g. a lock bit) | spare | cell j+c−1 | … | cell j |
 * </pre>
 *
 * A table of single cells (k = 1) is {@link #ofMemory}: ⌊64 / b⌋ cells per word, ⌊M / 64⌋ words. Fields that may
 * straddle two words (the Dynamic SQF's linked lists) use {@link #getFieldPlain} and {@link #setFieldPlain}.
 */
public final class PackedCells
{
    private final long rows;
    private final int cellsPerRow;
    private final int cellBits;
    private final long cellMask;
    private final boolean wide;
    private final int rowsPerWord;
    private final int cellsPerWord;
    private final int wordsPerRow;
    private final long words;

    /**
     * @param rows         rows of the table.
     * @param cellsPerRow  k.
     * @param cellBits     b, in 1..64.
     * @param reservedBits top bits of a wide row's words left to the owner (e.g. 1 for a lock bit), 0 or more.
     */
    public PackedCells(final long rows, final int cellsPerRow, final int cellBits, final int reservedBits)
    {
        this.rows = rows;
        this.cellsPerRow = cellsPerRow;
        this.cellBits = cellBits;
        this.cellMask = mask(cellBits);
        final long rowBits = (long)cellsPerRow * cellBits;
        this.wide = rowBits > 64;
        if (wide)
        {
            this.rowsPerWord = 0;
            this.cellsPerWord = (64 - reservedBits) / cellBits;
            this.wordsPerRow = (cellsPerRow + cellsPerWord - 1) / cellsPerWord;
            this.words = rows * wordsPerRow;
        }
        else
        {
            this.rowsPerWord = (int)(64 / rowBits);
            this.cellsPerWord = cellsPerRow * rowsPerWord;
            this.wordsPerRow = 1;
            this.words = (rows + rowsPerWord - 1) / rowsPerWord;
        }
    }

    /**
     * @param memoryBits M, at least 64.
     * @param cellBits   b, in 1..64.
     * @return a table of single cells filling ⌊M / 64⌋ words, ⌊64 / b⌋ cells to a word.
     */
    public static PackedCells ofMemory(final long memoryBits, final int cellBits)
    {
        return new PackedCells((memoryBits >>> 6) * (64 / cellBits), 1, cellBits, 0);
    }

    /**
     * @param bits a width in 0..64.
     * @return a mask of that many low bits.
     */
    public static long mask(final int bits)
    {
        return bits == 64 ? -1L : (1L << bits) - 1;
    }

    /**
     * @param word  a word.
     * @param shift the cell's lowest bit in the word.
     * @param mask  the cell's {@link #mask}.
     * @return the cell's value.
     */
    public static long get(final long word, final int shift, final long mask)
    {
        return (word >>> shift) & mask;
    }

    /**
     * @param word  a word.
     * @param shift the cell's lowest bit in the word.
     * @param mask  the cell's {@link #mask}.
     * @param value the cell's new value, within the mask.
     * @return the word with the cell replaced (for a compare-and-swap or a plain store).
     */
    public static long with(final long word, final int shift, final long mask, final long value)
    {
        return (word & ~(mask << shift)) | (value << shift);
    }

    /**
     * @param words the words.
     * @param bit   index of the field's lowest bit.
     * @param width bits, 1..63.
     * @return the field, which may straddle two words (plain reads: the caller holds a lock).
     */
    public static long getFieldPlain(final MappedWords words, final long bit, final int width)
    {
        final long index = bit >>> 6;
        final int offset = (int)(bit & 63);
        long value = words.getLongPlain(index) >>> offset;
        if (offset + width > 64)
        {
            value |= words.getLongPlain(index + 1) << (64 - offset);
        }
        return value & ((1L << width) - 1); // width < 64: no branch of mask() on the DSQF's every field read
    }

    /**
     * @param words the words.
     * @param bit   index of the field's lowest bit.
     * @param width bits, 1..63.
     * @param value the field, below 2^width; it may straddle two words (plain writes: the caller holds a lock).
     */
    public static void setFieldPlain(final MappedWords words, final long bit, final int width, final long value)
    {
        final long index = bit >>> 6;
        final int offset = (int)(bit & 63);
        final long mask = (1L << width) - 1;
        words.putLongPlain(index, with(words.getLongPlain(index), offset, mask, value));
        if (offset + width > 64)
        {
            final int spilled = 64 - offset;
            words.putLongPlain(index + 1, with(words.getLongPlain(index + 1), 0, mask >>> spilled, value >>> spilled));
        }
    }

    /** @return whether rows span whole words. */
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
    public int cellsPerWord()
    {
        return cellsPerWord;
    }

    /** @return words per row (1 for narrow rows). */
    public int wordsPerRow()
    {
        return wordsPerRow;
    }

    /** @return words holding the rows. */
    public long words()
    {
        return words;
    }

    /** @return rows of the table. */
    public long rows()
    {
        return rows;
    }

    /** @return cells per row k. */
    public int cellsPerRow()
    {
        return cellsPerRow;
    }

    /** @return bits per cell b. */
    public int cellBits()
    {
        return cellBits;
    }

    /** @return the mask of one cell's bits, at shift 0. */
    public long cellMask()
    {
        return cellMask;
    }

    /** @return cells of the table, rows · k. */
    public long cells()
    {
        return rows * cellsPerRow;
    }

    /**
     * @param row a row of a narrow table (for single cells: a cell).
     * @return the word holding it.
     */
    public long wordOf(final long row)
    {
        return row / rowsPerWord;
    }

    /**
     * @param row a row of a narrow table (for single cells: a cell).
     * @return its lowest bit in its word.
     */
    public int shiftOf(final long row)
    {
        return (int)(row % rowsPerWord) * cellsPerRow * cellBits;
    }

    /**
     * @param word a word of the table.
     * @return the bits of that word that hold cells: 0 for a word past the last row.
     */
    public long cellBitsOf(final long word)
    {
        if (word >= words)
        {
            return 0;
        }
        if (wide)
        {
            final long inRow = word % wordsPerRow;
            return mask((int)(Math.min(cellsPerWord, cellsPerRow - inRow * cellsPerWord) * cellBits));
        }
        return mask((int)(Math.min(rowsPerWord, rows - word * rowsPerWord) * cellsPerRow * cellBits));
    }

    /**
     * The structure check of a packed table whose file cannot vouch for it: every bit outside a cell is zero (the
     * spare bits of each word, and any padding words after the rows), except {@code rowReserved} in the first word
     * of a wide row (a lock bit a crash can leave set). Plain reads; changes nothing.
     *
     * @param table       the table, {@link #words()} long or longer.
     * @param rowReserved bits allowed besides the cells in a wide row's first word (0 for none).
     * @return the first word with stray bits, or -1 when there is none.
     */
    public long firstStrayWord(final MappedWords table, final long rowReserved)
    {
        for (long w = 0; w < table.words(); w++)
        {
            final long value = table.getLongPlain(w);
            if (value == 0)
            {
                continue;
            }
            final long allowed = cellBitsOf(w) | (wide && w < words && w % wordsPerRow == 0 ? rowReserved : 0);
            if ((value & ~allowed) != 0)
            {
                return w;
            }
        }
        return -1;
    }
}
