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
 * Dynamic SQF's parameters (SQF paper §5.1): R rows (positions of the vector V), a shared pool of P = k·R buckets,
 * k being the mean number of buckets per row (SQF's k), and SQF's signature of r' reduced-remainder bits and the
 * ⌈log2(r + 1)⌉-bit Hamming weight of the r remainder bits. Size either by rows, or by memory M, with R the largest
 * such that the packed rows and pool fit in M (each row: a chain head and two recency links; each bucket: a
 * signature and a chain link, all as narrow as their ranges allow). Refuses k ≥ S, the number of distinct non-empty
 * signatures: a row holding its mean share of buckets could then hold every signature and answer DUPLICATE to
 * everything.
 *
 * <p>The SQF paper: S. Dutta, A. Narang and S. K. Bera, "Streaming Quotient Filter: A Near Optimal Approximate
 * Duplicate Detection Approach for Data Streams", PVLDB 6(8), 2013.
 */
public final class DynamicSqfDefinition extends KindDefinition
{
    /** Default memory: 2^26 bits (8 MiB). */
    static final long DEFAULT_MEMORY_BITS = 1L << 26;
    /** Default mean buckets per row, as SQF's default k. */
    static final int DEFAULT_BUCKETS = 4;
    /** Default remainder bits, as SQF's. */
    static final int DEFAULT_REMAINDER_BITS = 16;
    /** Default reduced-remainder bits, as SQF's. */
    static final int DEFAULT_REDUCED_BITS = 8;
    /** Largest table: 2^43 bits (1 TiB). */
    static final long MAX_MEMORY_BITS = 1L << 43;
    /** Largest signature. */
    static final int MAX_SIGNATURE_BITS = 32;
    /** Largest pool (bucket indexes stay below 2^31). */
    static final long MAX_POOL = Integer.MAX_VALUE;
    /** Largest mean buckets per row. */
    static final int MAX_BUCKETS = 1024;

    static final int ROWS = 0;
    static final int BUCKETS = 1;
    static final int REMAINDER = 2;
    static final int REDUCED = 3;
    static final int MEMORY = 4;
    static final int POOL = 5;

    private static final ParamDef P_ROWS = ParamDef.longOption("rows", "Rows N, instead of --memory-bits.");
    private static final ParamDef P_REMAINDER = ParamDef.longOption("remainder-bits",
        "Remainder bits r, SQF (default 16).");
    private static final ParamDef P_REDUCED = ParamDef.longOption("reduced-bits",
        "Reduced-remainder bits r', SQF, below r (default 8).");
    private static final ParamDef P_POOL = ParamDef.derived("pool", "Buckets in the shared pool P = k x rows, DSQF.");
    private static final List<ParamDef> PARAMS = List.of(P_ROWS, CommonParams.BUCKETS, P_REMAINDER, P_REDUCED,
        CommonParams.MEMORY_BITS, P_POOL);

    /** The definition. */
    public DynamicSqfDefinition()
    {
    }

    @Override
    public int code()
    {
        return KindCodes.DSQF;
    }

    @Override
    public List<ParamDef> params()
    {
        return PARAMS;
    }

    @Override
    public long[] resolve(final GivenParameters given)
    {
        final long k = given.getLong(CommonParams.BUCKETS.name(), DEFAULT_BUCKETS);
        require(k >= 1 && k <= MAX_BUCKETS, "buckets (mean per row) must be in 1.." + MAX_BUCKETS + ", got " + k);
        final long r = given.getLong(P_REMAINDER.name(), DEFAULT_REMAINDER_BITS);
        require(r >= 1 && r <= MAX_SIGNATURE_BITS, "remainder-bits must be in 1.." + MAX_SIGNATURE_BITS + ", got " + r);
        final long reduced = given.getLong(P_REDUCED.name(), Math.min(DEFAULT_REDUCED_BITS, r - 1));
        require(reduced >= 0 && reduced < r,
            "reduced-bits must be in 0..remainder-bits-1 (" + (r - 1) + "), got " + reduced);
        final int signatureBits = CellFunction.sqfSignatureBits((int)r, (int)reduced);
        require(signatureBits <= MAX_SIGNATURE_BITS, "a signature of reduced-bits + ceil(log2(remainder-bits + 1)) = " +
            signatureBits + " bits is more than " + MAX_SIGNATURE_BITS);
        final long distinct = CellFunction.sqfDistinctSignatures(r, reduced);
        require(k < distinct, "buckets (" + k + ") must be fewer than the " + distinct + " distinct non-empty " +
            "signatures: a row holding its share would then hold every value and answer DUPLICATE to everything; " +
            "raise remainder-bits or reduced-bits, or lower buckets");
        require(!(given.has(P_ROWS.name()) && given.has(CommonParams.MEMORY_BITS.name())),
            "give either memory-bits or rows, not both");
        final long rows;
        final long m;
        if (given.has(P_ROWS.name()))
        {
            rows = given.getLong(P_ROWS.name(), 0);
            m = 0;
            require(rows >= 1, "rows must be at least 1, got " + rows);
            require(rows <= MAX_POOL / k, "rows x buckets must be at most 2^31 - 1, got " + rows + " x " + k);
        }
        else
        {
            m = given.getLong(CommonParams.MEMORY_BITS.name(), DEFAULT_MEMORY_BITS);
            require(m <= MAX_MEMORY_BITS, "memory-bits must be at most 2^43 (1 TiB), got " + m);
            rows = rowsFor(m, k, signatureBits);
            require(rows >= 1, "memory-bits " + m + " is less than one row with " + k + " buckets of " +
                signatureBits + "-bit signatures and their links");
            require(rows <= MAX_POOL / k, "memory-bits " + m + " gives a pool above 2^31 - 1 buckets");
        }
        final long[] slots = {rows, k, r, reduced, m, rows * k};
        require(DsqfLayout.payloadBits(rows, rows * k, signatureBits) <= MAX_MEMORY_BITS,
            "rows x buckets exceeds the largest table, 2^43 bits");
        return slots;
    }

    @Override
    public void check(final long[] slots)
    {
        require(slots.length == PARAMS.size(), "expected " + PARAMS.size() + " parameters");
        require(slots[BUCKETS] >= 1 && slots[BUCKETS] <= MAX_BUCKETS, "buckets out of range");
        require(slots[ROWS] >= 1 && slots[ROWS] <= MAX_POOL / slots[BUCKETS], "rows out of range");
        require(slots[POOL] == slots[ROWS] * slots[BUCKETS], "pool is not rows x buckets");
        require(slots[REMAINDER] >= 1 && slots[REMAINDER] <= MAX_SIGNATURE_BITS, "remainder-bits out of range");
        require(slots[REDUCED] >= 0 && slots[REDUCED] < slots[REMAINDER], "reduced-bits out of range");
        require(CellFunction.sqfSignatureBits((int)slots[REMAINDER], (int)slots[REDUCED]) <= MAX_SIGNATURE_BITS,
            "signature too wide");
    }

    @Override
    public long tableBytes(final long[] slots)
    {
        return layout(slots).regionBytes();
    }

    @Override
    public FilterCore core(final long[] slots, final MappedWords region, final MappedWords headerState)
    {
        final DsqfLayout layout = layout(slots);
        final MappedWords mine = region.slice(0, DsqfLayout.STATE_WORDS + layout.rowWords() + layout.poolWords());
        return new DynamicSqfCore(layout, (int)slots[REMAINDER], (int)slots[REDUCED], mine);
    }

    @Override
    public Map<String, String> describe(final long[] slots)
    {
        final DsqfLayout layout = layout(slots);
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("pool-buckets", Long.toString(layout.pool()));
        map.put("signature-bits", Integer.toString(layout.signatureBits()));
        map.put("distinct-fingerprints", Long.toString(CellFunction.sqfDistinctSignatures(slots[REMAINDER], slots[REDUCED])));
        map.put("bits-per-row", Integer.toString(layout.rowBits()));
        map.put("bits-per-bucket", Integer.toString(layout.bucketBits()));
        map.put("payload-bits", Long.toString(DsqfLayout.payloadBits(layout.rows(), layout.pool(),
            layout.signatureBits())));
        return map;
    }

    /**
     * @param slots resolved parameters.
     * @return the region's layout.
     */
    static DsqfLayout layout(final long[] slots)
    {
        return new DsqfLayout(slots[ROWS], slots[POOL],
            CellFunction.sqfSignatureBits((int)slots[REMAINDER], (int)slots[REDUCED]));
    }

    /**
     * The most rows whose packed rows and k·R buckets fit in M bits: a binary search, since the bits taken grow
     * with R (field widths included).
     */
    static long rowsFor(final long memoryBits, final long k, final int signatureBits)
    {
        long low = 0; // fits (vacuously)
        long high = Math.min(memoryBits / (k * signatureBits), MAX_POOL / k) + 1; // does not fit, or is too many
        while (high - low > 1)
        {
            final long mid = (low + high) >>> 1;
            if (DsqfLayout.payloadBits(mid, mid * k, signatureBits) <= memoryBits)
            {
                low = mid;
            }
            else
            {
                high = mid;
            }
        }
        return low;
    }
}
