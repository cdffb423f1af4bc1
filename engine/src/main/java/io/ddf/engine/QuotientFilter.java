package io.ddf.engine;

import io.ddf.persistence.FilterFile;
import org.agrona.DirectBuffer;

import java.nio.file.Path;

/**
 * The quotient filters of seed 000 and seed 004: a table of N rows of k cells, an element's hash choosing its
 * row (the quotient) and the value it stores there (a QHT fingerprint or an SQF signature).
 *
 * <ul>
 *   <li>QHT and SQF (seed 000 Alg. 1, seed 004 Alg. 1): DUPLICATE if the row holds the value; otherwise store it
 *       in the first empty cell, or evict a cell chosen at random.</li>
 *   <li>QHTD: the same, but the value is stored even when judged a duplicate (seed 000 §5.1).</li>
 *   <li>QQHTD: a FIFO row; every element pops the oldest cell and appends its value (seed 000 Alg. 2).</li>
 * </ul>
 * The eviction choice is derived from the element's hash (and so from the seed), not from a thread's random
 * generator: the same file and stream give the same verdicts every time.
 *
 * <p>Subclasses hold the row layout: {@link NarrowQuotientFilter} updates a row with one compare-and-swap,
 * {@link WideQuotientFilter} under a per-row lock bit.
 */
abstract class QuotientFilter implements DuplicateFilter
{
    private static final long EVICTION_SALT = 0x5DEECE66DL * 0x2545F4914F6CDD1DL;

    protected final MappedWords table;
    protected final int buckets;
    protected final int slotBits;
    protected final long slotMask;
    protected final boolean insertOnDuplicate;
    protected final boolean fifo;

    private final FilterFile file;
    private final FilterParameters parameters;
    private final ElementHasher hasher;
    private final CellFunction cells;
    private final FilterCounters counters;
    private final long rows;
    private boolean closed;

    QuotientFilter(final FilterFile file, final FilterParameters parameters)
    {
        this.file = file;
        this.parameters = parameters;
        this.hasher = ElementHasher.of(parameters.hashAlgorithm(), parameters.seed(), file.spec().key());
        this.cells = parameters.kind() == FilterKind.SQF ?
            CellFunction.sqf(parameters.remainderBits(), parameters.reducedBits()) :
            CellFunction.qht(parameters.fingerprintBits());
        this.counters = new FilterCounters(file.stateAddress(), file.stateLength());
        final TableLayout layout = parameters.layout();
        if (file.tableLength() < layout.words() * Long.BYTES)
        {
            throw new IllegalStateException("table of " + file.tableLength() + " bytes, layout needs " +
                layout.words() * Long.BYTES);
        }
        this.table = new MappedWords(file.tableAddress(), layout.words());
        this.rows = parameters.rows();
        this.buckets = parameters.buckets();
        this.slotBits = parameters.slotBits();
        this.slotMask = (1L << slotBits) - 1;
        this.insertOnDuplicate = parameters.kind() == FilterKind.QHTD || parameters.kind() == FilterKind.QQHTD;
        this.fifo = parameters.kind() == FilterKind.QQHTD;
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
     * @param hash the element's hash.
     * @return the cell to evict from a full row, uniform over the k cells.
     */
    final int victim(final long hash)
    {
        return (int)Mix.reduce(Mix.mix64(hash ^ EVICTION_SALT), buckets);
    }

    /**
     * @param element an element.
     * @return the row it falls in (for tests that need to know which elements share a row).
     */
    final long rowOf(final long element)
    {
        return Mix.reduce(hasher.hash(element), rows);
    }

    private Verdict streamHash(final long hash)
    {
        checkOpen();
        final long row = Mix.reduce(hash, rows);
        final boolean duplicate = streamRow(row, cells.cell(hash), hash);
        counters.record(row, duplicate);
        return duplicate ? Verdict.DUPLICATE : Verdict.UNSEEN;
    }

    private boolean containsHash(final long hash)
    {
        checkOpen();
        return containsRow(Mix.reduce(hash, rows), cells.cell(hash));
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("filter is closed");
        }
    }

    @Override
    public final Verdict stream(final long element)
    {
        return streamHash(hasher.hash(element));
    }

    @Override
    public final Verdict stream(final byte[] bytes, final int offset, final int length)
    {
        return streamHash(hasher.hash(bytes, offset, length));
    }

    @Override
    public final Verdict stream(final DirectBuffer buffer, final int offset, final int length)
    {
        return streamHash(hasher.hash(buffer, offset, length));
    }

    @Override
    public final Verdict stream(final CharSequence text)
    {
        return streamHash(hasher.hash(text));
    }

    @Override
    public final boolean contains(final long element)
    {
        return containsHash(hasher.hash(element));
    }

    @Override
    public final boolean contains(final byte[] bytes, final int offset, final int length)
    {
        return containsHash(hasher.hash(bytes, offset, length));
    }

    @Override
    public final boolean contains(final DirectBuffer buffer, final int offset, final int length)
    {
        return containsHash(hasher.hash(buffer, offset, length));
    }

    @Override
    public final boolean contains(final CharSequence text)
    {
        return containsHash(hasher.hash(text));
    }

    @Override
    public final FilterKind kind()
    {
        return parameters.kind();
    }

    @Override
    public final FilterParameters parameters()
    {
        return parameters;
    }

    @Override
    public final long elements()
    {
        return counters.elements();
    }

    @Override
    public final long duplicates()
    {
        return counters.duplicates();
    }

    @Override
    public final Path path()
    {
        return file.path();
    }

    @Override
    public final void flush()
    {
        checkOpen();
        file.flush();
    }

    /**
     * Unmaps the file. Callers must make sure no other thread is still streaming into this filter.
     */
    @Override
    public final void close()
    {
        if (!closed)
        {
            closed = true;
            file.close();
        }
    }

    @Override
    public String toString()
    {
        return parameters.toString();
    }
}
