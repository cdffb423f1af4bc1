package io.ddf.engine.quotient;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.CommonParams;
import io.ddf.engine.spi.FilterCore;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.engine.spi.KindCodes;
import io.ddf.engine.spi.KindDefinition;
import io.ddf.engine.spi.ParamDef;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The quotient filters' parameters: N rows of k cells, each cell a QHT fingerprint of s bits or an SQF signature
 * of r' + ⌈log2(r + 1)⌉ bits. Size either by rows, or by memory M with N = ⌊M / (k · bits per cell)⌋ (QHT paper
 * Alg. 1). Refuses k ≥ S, the number of distinct non-empty cell values: a full row would then hold them all
 * and answer DUPLICATE to everything.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
public final class QuotientDefinition extends KindDefinition
{
    /** Default memory: 2^26 bits (8 MiB). */
    static final long DEFAULT_MEMORY_BITS = 1L << 26;
    /** Default buckets per row. */
    static final int DEFAULT_BUCKETS = 4;
    /** Default QHT fingerprint bits: four 16-bit cells fill one 64-bit word. */
    static final int DEFAULT_FINGERPRINT_BITS = 16;
    /** Default SQF remainder bits. */
    static final int DEFAULT_REMAINDER_BITS = 16;
    /** Default SQF reduced-remainder bits. */
    static final int DEFAULT_REDUCED_BITS = 8;
    /** Largest table: 2^43 bits (1 TiB). */
    static final long MAX_MEMORY_BITS = 1L << 43;
    /** Largest cell: fingerprints and signatures of at most 32 bits. */
    static final int MAX_CELL_BITS = 32;

    static final int ROWS = 0;
    static final int BUCKETS = 1;
    /** QHT kinds: fingerprint bits s. SQF: remainder bits r. */
    static final int CELL_PARAM = 2;
    /** SQF: reduced bits r'. (Slot 3 of the QHT kinds, and slot 4 of SQF, hold the memory bits asked for.) */
    private static final int SQF_REDUCED = 3;

    private static final ParamDef P_ROWS = ParamDef.longOption("rows", "Rows N, instead of --memory-bits.");
    private static final ParamDef P_BUCKETS = CommonParams.BUCKETS;
    private static final ParamDef P_FINGERPRINT = CommonParams.FINGERPRINT_BITS;
    private static final ParamDef P_REMAINDER = ParamDef.longOption("remainder-bits",
        "Remainder bits r, SQF (default 16).");
    private static final ParamDef P_REDUCED = ParamDef.longOption("reduced-bits",
        "Reduced-remainder bits r', SQF, below r (default 8).");
    private static final ParamDef P_MEMORY = CommonParams.MEMORY_BITS;

    private final int kind;
    private final boolean sqf;

    public QuotientDefinition(final int kind)
    {
        this.kind = kind;
        this.sqf = kind == KindCodes.SQF;
    }

    @Override
    public int code()
    {
        return kind;
    }

    @Override
    public List<ParamDef> params()
    {
        return sqf ?
            List.of(P_ROWS, P_BUCKETS, P_REMAINDER, P_REDUCED, P_MEMORY) :
            List.of(P_ROWS, P_BUCKETS, P_FINGERPRINT, P_MEMORY);
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        final long k = given.getLong(P_BUCKETS.name(), DEFAULT_BUCKETS);
        require(k >= 1 && k <= 64, "buckets must be in 1..64, got " + k);
        final long cellParam;
        long reduced = 0;
        final int cellBits;
        if (sqf)
        {
            cellParam = given.getLong(P_REMAINDER.name(), DEFAULT_REMAINDER_BITS);
            require(cellParam >= 1 && cellParam <= MAX_CELL_BITS,
                "remainder-bits must be in 1.." + MAX_CELL_BITS + ", got " + cellParam);
            reduced = given.getLong(P_REDUCED.name(), Math.min(DEFAULT_REDUCED_BITS, cellParam - 1));
            require(reduced >= 0 && reduced < cellParam,
                "reduced-bits must be in 0..remainder-bits-1 (" + (cellParam - 1) + "), got " + reduced);
            cellBits = CellFunction.sqfSignatureBits((int)cellParam, (int)reduced);
            require(cellBits <= MAX_CELL_BITS, "a signature of reduced-bits + ceil(log2(remainder-bits + 1)) = " +
                cellBits + " bits is more than " + MAX_CELL_BITS);
        }
        else
        {
            cellParam = given.getLong(P_FINGERPRINT.name(), DEFAULT_FINGERPRINT_BITS);
            require(cellParam >= 1 && cellParam <= MAX_CELL_BITS,
                "fingerprint-bits must be in 1.." + MAX_CELL_BITS + ", got " + cellParam);
            cellBits = (int)cellParam;
        }
        require(!(given.has(P_ROWS.name()) && given.has(P_MEMORY.name())), "give either memory-bits or rows, not both");
        final long rowBits = k * cellBits;
        final long n;
        final long m;
        if (given.has(P_ROWS.name()))
        {
            n = given.getLong(P_ROWS.name(), 0);
            m = 0;
            require(n >= 1, "rows must be at least 1, got " + n);
            require(n <= MAX_MEMORY_BITS / rowBits, "rows x buckets x bits per cell exceeds the largest table, 2^43 bits");
        }
        else
        {
            m = given.getLong(P_MEMORY.name(), DEFAULT_MEMORY_BITS);
            require(m <= MAX_MEMORY_BITS, "memory-bits must be at most 2^43 (1 TiB), got " + m);
            require(m >= rowBits, "memory-bits " + m + " is less than one row of " + k + " x " + cellBits + " = " +
                rowBits + " bits (Geraud et al. 2019 Alg. 1 needs M > k·s)");
            n = m / rowBits;
        }
        final long[] slots = sqf ? new long[] {n, k, cellParam, reduced, m} : new long[] {n, k, cellParam, m};
        final long distinct = distinctCells(slots);
        require(k < distinct, "buckets (" + k + ") must be fewer than the " + distinct + " distinct non-empty " +
            (sqf ? "signatures" : "fingerprints") + ": a full row would then hold every value and answer DUPLICATE " +
            "to everything (FPR pinned at 1)" +
            (sqf ? "; raise remainder-bits or reduced-bits, or lower buckets" : "; raise fingerprint-bits"));
        return slots;
    }

    @Override
    public void check(final long[] slots)
    {
        require(slots.length == params().size(), "expected " + params().size() + " parameters");
        require(slots[ROWS] >= 1 && slots[BUCKETS] >= 1 && slots[BUCKETS] <= 64, "rows and buckets must be positive");
        require(slots[CELL_PARAM] >= 1 && slots[CELL_PARAM] <= MAX_CELL_BITS, "cell parameter out of range");
        require(!sqf || (slots[SQF_REDUCED] >= 0 && slots[SQF_REDUCED] < slots[CELL_PARAM]), "reduced-bits out of range");
        require(cellBits(slots) <= MAX_CELL_BITS, "cell too wide");
        require(slots[ROWS] <= MAX_MEMORY_BITS / (slots[BUCKETS] * cellBits(slots)), "table too large");
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return layout(slots).tableBytes();
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        final TableLayout layout = layout(slots);
        final CellFunction cells = sqf ?
            CellFunction.sqf((int)slots[CELL_PARAM], (int)slots[SQF_REDUCED]) :
            CellFunction.qht((int)slots[CELL_PARAM]);
        final MappedWords table = region.slice(0, layout.words());
        return layout.wide() ?
            new WideQuotientCore(kind, layout, cells, table) :
            new NarrowQuotientCore(kind, layout, cells, table);
    }

    /** Bits outside the cells must be zero (see {@link TableLayout#checkUnusedBitsZero}). */
    @Override
    public void checkStructure(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        layout(slots).checkUnusedBitsZero(region);
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final Map<String, String> map = new LinkedHashMap<>();
        if (sqf)
        {
            map.put("signature-bits", Integer.toString(cellBits(slots)));
        }
        map.put("distinct-fingerprints", Long.toString(distinctCells(slots)));
        map.put("cell-memory-bits", Long.toString(slots[ROWS] * slots[BUCKETS] * cellBits(slots)));
        map.put("row-layout", layout(slots).describe());
        return map;
    }

    /**
     * @param slots resolved parameters.
     * @return how the rows pack into words.
     */
    public TableLayout layout(final long[] slots)
    {
        return new TableLayout(slots[ROWS], (int)slots[BUCKETS], cellBits(slots));
    }

    /**
     * S, the number of distinct non-empty cell values an element can produce. 0 marks an empty cell, so a QHT
     * has 2^s − 1 and an SQF 2^r' · (r − r' + 1) − 1 (QHT paper §3.2 option 3 and §4.4.1).
     *
     * @param slots resolved parameters.
     * @return S.
     */
    public long distinctCells(final long[] slots)
    {
        if (sqf)
        {
            return CellFunction.sqfDistinctSignatures(slots[CELL_PARAM], slots[SQF_REDUCED]);
        }
        return (1L << slots[CELL_PARAM]) - 1;
    }

    private int cellBits(final long[] slots)
    {
        return sqf ?
            CellFunction.sqfSignatureBits((int)slots[CELL_PARAM], (int)slots[SQF_REDUCED]) :
            (int)slots[CELL_PARAM];
    }
}
