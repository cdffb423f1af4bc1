package io.ddf.engine;

import io.ddf.persistence.FilterFileSpec;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A quotient filter's resolved parameters: what its file header holds, and the table layout they imply.
 *
 * <p>Parameters are stored in the header's parameter slots ({@code P_*}); the layout is derived, never stored.
 */
public final class FilterParameters
{
    /** Header parameter slot: number of rows N. */
    public static final int P_ROWS = 0;
    /** Header parameter slot: buckets (cells) per row k. */
    public static final int P_BUCKETS = 1;
    /** Header parameter slot: bits per cell. */
    public static final int P_SLOT_BITS = 2;
    /** Header parameter slot: QHT fingerprint bits s (0 for SQF). */
    public static final int P_FINGERPRINT_BITS = 3;
    /** Header parameter slot: SQF remainder bits r (0 for QHT). */
    public static final int P_REMAINDER_BITS = 4;
    /** Header parameter slot: SQF reduced-remainder bits r' (0 for QHT). */
    public static final int P_REDUCED_BITS = 5;
    /** Header parameter slot: memory in bits as requested (0 when given as rows). */
    public static final int P_MEMORY_BITS = 6;
    /** Number of parameter slots used. */
    static final int PARAM_COUNT = 7;

    private final FilterKind kind;
    private final int fingerprintBits;
    private final int remainderBits;
    private final int reducedBits;
    private final long requestedMemoryBits;
    private final HashAlgorithm hashAlgorithm;
    private final long seed;
    private final TableLayout layout;

    FilterParameters(
        final FilterKind kind,
        final long rows,
        final int buckets,
        final int fingerprintBits,
        final int remainderBits,
        final int reducedBits,
        final long requestedMemoryBits,
        final HashAlgorithm hashAlgorithm,
        final long seed)
    {
        this.kind = kind;
        this.fingerprintBits = fingerprintBits;
        this.remainderBits = remainderBits;
        this.reducedBits = reducedBits;
        this.requestedMemoryBits = requestedMemoryBits;
        this.hashAlgorithm = hashAlgorithm;
        this.seed = seed;
        final int slotBits = kind == FilterKind.SQF ? sqfSignatureBits(remainderBits, reducedBits) : fingerprintBits;
        this.layout = new TableLayout(rows, buckets, slotBits);
    }

    /**
     * Reads the parameters from a header.
     *
     * @param spec a file header's immutable fields.
     * @return the parameters.
     * @throws IllegalArgumentException when the header holds a kind or hash this build does not know.
     */
    static FilterParameters fromSpec(final FilterFileSpec spec)
    {
        return new FilterParameters(
            FilterKind.fromCode(spec.kind()),
            spec.param(P_ROWS),
            (int)spec.param(P_BUCKETS),
            (int)spec.param(P_FINGERPRINT_BITS),
            (int)spec.param(P_REMAINDER_BITS),
            (int)spec.param(P_REDUCED_BITS),
            spec.param(P_MEMORY_BITS),
            HashAlgorithm.fromCode(spec.hashAlgorithm()),
            spec.seed());
    }

    long[] toParams()
    {
        final long[] params = new long[PARAM_COUNT];
        params[P_ROWS] = rows();
        params[P_BUCKETS] = buckets();
        params[P_SLOT_BITS] = slotBits();
        params[P_FINGERPRINT_BITS] = fingerprintBits;
        params[P_REMAINDER_BITS] = remainderBits;
        params[P_REDUCED_BITS] = reducedBits;
        params[P_MEMORY_BITS] = requestedMemoryBits;
        return params;
    }

    /**
     * Bits of an SQF signature: the reduced remainder and the Hamming weight of the remainder, which takes
     * values 0..r and so needs ceil(log2(r + 1)) bits (seed 000 §4.4.2).
     *
     * @param remainderBits r.
     * @param reducedBits   r'.
     * @return r' + ceil(log2(r + 1)).
     */
    static int sqfSignatureBits(final int remainderBits, final int reducedBits)
    {
        return reducedBits + weightBits(remainderBits);
    }

    static int weightBits(final int remainderBits)
    {
        return 64 - Long.numberOfLeadingZeros(remainderBits);
    }

    /** @return the kind. */
    public FilterKind kind()
    {
        return kind;
    }

    /** @return number of rows N. */
    public long rows()
    {
        return layout.rows();
    }

    /** @return buckets per row k. */
    public int buckets()
    {
        return layout.buckets();
    }

    /** @return bits per cell. */
    public int slotBits()
    {
        return layout.slotBits();
    }

    /** @return QHT fingerprint bits s, 0 for SQF. */
    public int fingerprintBits()
    {
        return fingerprintBits;
    }

    /** @return SQF remainder bits r, 0 for QHT kinds. */
    public int remainderBits()
    {
        return remainderBits;
    }

    /** @return SQF reduced-remainder bits r', 0 for QHT kinds. */
    public int reducedBits()
    {
        return reducedBits;
    }

    /** @return memory in bits as requested, 0 when the size was given in rows. */
    public long requestedMemoryBits()
    {
        return requestedMemoryBits;
    }

    /** @return the bits the cells occupy: N · k · bits per cell. */
    public long cellBits()
    {
        return rows() * buckets() * slotBits();
    }

    /** @return the hash algorithm. */
    public HashAlgorithm hashAlgorithm()
    {
        return hashAlgorithm;
    }

    /** @return the hash seed. */
    public long seed()
    {
        return seed;
    }

    /** @return whether the hash is keyed (SipHash with a secret key). */
    public boolean keyed()
    {
        return hashAlgorithm == HashAlgorithm.SIPHASH24_KEYED;
    }

    /**
     * S, the number of distinct non-empty cell values an element can produce. 0 marks an empty cell, so a QHT
     * has 2^s − 1 and an SQF 2^r' · (r − r' + 1) − 1 (seed 000 §3.2 option 3 and §4.4.1).
     *
     * @return S.
     */
    public long distinctFingerprints()
    {
        if (kind == FilterKind.SQF)
        {
            return (1L << reducedBits) * (remainderBits - reducedBits + 1) - 1;
        }
        return (1L << fingerprintBits) - 1;
    }

    /** @return how the rows are packed into 64-bit words. */
    public TableLayout layout()
    {
        return layout;
    }

    /**
     * @return the parameters by their command-line names, in a stable order.
     */
    public Map<String, String> toMap()
    {
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("kind", kind.cliName());
        map.put("rows", Long.toString(rows()));
        map.put("buckets", Integer.toString(buckets()));
        if (kind == FilterKind.SQF)
        {
            map.put("remainder-bits", Integer.toString(remainderBits));
            map.put("reduced-bits", Integer.toString(reducedBits));
            map.put("signature-bits", Integer.toString(slotBits()));
        }
        else
        {
            map.put("fingerprint-bits", Integer.toString(fingerprintBits));
        }
        map.put("distinct-fingerprints", Long.toString(distinctFingerprints()));
        if (requestedMemoryBits != 0)
        {
            map.put("memory-bits", Long.toString(requestedMemoryBits));
        }
        map.put("cell-bits", Long.toString(cellBits()));
        map.put("table-bytes", Long.toString(layout.tableBytes()));
        map.put("row-layout", layout.describe());
        map.put("hash", hashAlgorithm.displayName());
        map.put("seed", keyed() ? "(keyed)" : Long.toString(seed));
        return map;
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder();
        for (final Map.Entry<String, String> e : toMap().entrySet())
        {
            sb.append(sb.length() == 0 ? "" : " ").append(e.getKey()).append('=').append(e.getValue());
        }
        return sb.toString();
    }
}
