package io.ddf.engine.bloom;

/**
 * Cells of b bits packed ⌊64 / b⌋ to a word, none straddling two words, so that one compare-and-swap updates a
 * cell. M bits of memory hold ⌊M / 64⌋ words, hence ⌊M / 64⌋ · ⌊64 / b⌋ cells.
 */
final class PackedCells
{
    private final int cellBits;
    private final long cellMask;
    private final int cellsPerWord;
    private final long words;
    private final long cells;

    /**
     * @param memoryBits M, at least 64.
     * @param cellBits   b, in 1..64.
     */
    PackedCells(final long memoryBits, final int cellBits)
    {
        this.cellBits = cellBits;
        this.cellMask = cellBits == 64 ? -1L : (1L << cellBits) - 1;
        this.cellsPerWord = 64 / cellBits;
        this.words = memoryBits >>> 6;
        this.cells = words * cellsPerWord;
    }

    /** @return bits per cell. */
    int cellBits()
    {
        return cellBits;
    }

    /** @return a mask of one cell's bits, at shift 0. */
    long cellMask()
    {
        return cellMask;
    }

    /** @return cells per word. */
    int cellsPerWord()
    {
        return cellsPerWord;
    }

    /** @return words holding the cells. */
    long words()
    {
        return words;
    }

    /** @return number of cells m. */
    long cells()
    {
        return cells;
    }

    /**
     * @param cell a cell index.
     * @return the word holding it.
     */
    long wordOf(final long cell)
    {
        return cell / cellsPerWord;
    }

    /**
     * @param cell a cell index.
     * @return its bit shift inside its word.
     */
    int shiftOf(final long cell)
    {
        return (int)(cell % cellsPerWord) * cellBits;
    }
}
