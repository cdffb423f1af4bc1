package io.ddf.engine.quotient;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.KindCodes;

/**
 * The quotient filters of the QHT paper and the SQF paper: a table of N rows of k cells, an element's hash choosing its
 * row (the quotient) and the value it stores there (a QHT fingerprint or an SQF signature).
 *
 * <ul>
 *   <li>QHT and SQF (QHT paper Alg. 1, SQF paper Alg. 1): DUPLICATE if the row holds the value; otherwise store it
 *       in the first empty cell, or evict a cell chosen at random.</li>
 *   <li>QHTD: the same, but the value is stored even when judged a duplicate (QHT paper §5.1).</li>
 *   <li>QQHTD: a FIFO row; every element pops the oldest cell and appends its value (QHT paper Alg. 2).</li>
 * </ul>
 * The eviction choice is derived from the element's hash (and so from the seed), not from a thread's random
 * generator: the same file and stream give the same verdicts every time.
 *
 * <p>Subclasses hold the row layout: {@link NarrowQuotientCore} updates a row with one compare-and-swap,
 * {@link WideQuotientCore} under a per-row lock bit. Either way a {@code stream} is atomic: two threads
 * streaming the same new element never both get UNSEEN (unless it is evicted in between).
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 *
 * <p>The SQF paper: S. Dutta, A. Narang and S. K. Bera, "Streaming Quotient Filter: A Near Optimal Approximate
 * Duplicate Detection Approach for Data Streams", PVLDB 6(8), 2013.
 */
abstract class QuotientCore implements FilterCore
{
    private static final long EVICTION_SALT = 0x5DEECE66DL * 0x2545F4914F6CDD1DL;

    protected final MappedWords table;
    protected final int buckets;
    protected final int slotBits;
    protected final long slotMask;
    protected final boolean insertOnDuplicate;
    protected final boolean fifo;

    private final CellFunction cells;
    private final long rows;

    QuotientCore(final int kind, final TableLayout layout, final CellFunction cells, final MappedWords table)
    {
        this.table = table;
        this.cells = cells;
        this.rows = layout.rows();
        this.buckets = layout.buckets();
        this.slotBits = layout.slotBits();
        this.slotMask = (1L << slotBits) - 1;
        this.insertOnDuplicate = kind == KindCodes.QHTD || kind == KindCodes.QQHTD;
        this.fifo = kind == KindCodes.QQHTD;
    }

    /**
     * Decides and updates one row atomically.
     *
     * @param row   the row index.
     * @param cell  the element's non-zero cell value.
     * @param hash  the element's hash, for the eviction choice.
     * @return true when the row held the value (DUPLICATE).
     */
    abstract boolean streamRow(long row, long cell, long hash);

    /**
     * @param row  the row index.
     * @param cell the element's cell value.
     * @return true when the row holds the value; nothing changes.
     */
    abstract boolean containsRow(long row, long cell);

    /**
     * @param row the row index.
     * @return a plain read of the row's (first) word: no lock, no ordering.
     */
    abstract long touchRow(long row);

    /**
     * @param hash the element's hash.
     * @return the cell to evict from a full row, uniform over the k cells.
     */
    final int victim(final long hash)
    {
        return (int)Mix.reduce(Mix.mix64(hash ^ EVICTION_SALT), buckets);
    }

    /**
     * @param hash an element's hash.
     * @return the row it falls in (for tests that need to know which elements share a row).
     */
    final long rowOf(final long hash)
    {
        return Mix.reduce(hash, rows);
    }

    @Override
    public final boolean stream(final long hash)
    {
        return streamRow(Mix.reduce(hash, rows), cells.cell(hash), hash);
    }

    @Override
    public final boolean contains(final long hash)
    {
        return containsRow(Mix.reduce(hash, rows), cells.cell(hash));
    }

    @Override
    public final long touch(final long hash)
    {
        return touchRow(Mix.reduce(hash, rows));
    }

    /** A row's verdicts depend on that row's history alone. */
    @Override
    public final boolean partitioned()
    {
        return true;
    }

    @Override
    public final long partition(final long hash)
    {
        return rowOf(hash);
    }

    @Override
    public final void clear()
    {
        table.clear();
    }
}
