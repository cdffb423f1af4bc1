package io.ddf.engine;

import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.FilterFileSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * Builds a new filter, or opens an existing one and checks it was made with the parameters asked for.
 *
 * <p>Size a filter either by {@link #memoryBits} (N = ⌊M / (k · bits per cell)⌋, seed 000 Alg. 1) or by
 * {@link #rows}. Cells: {@link #fingerprintBits} for the QHT kinds, {@link #remainderBits} and
 * {@link #reducedBits} for SQF. Nonsensical combinations are refused by {@link #parameters()} with a message
 * that says why.
 */
public final class FilterBuilder
{
    /** Default memory: 2^26 bits (8 MiB). */
    public static final long DEFAULT_MEMORY_BITS = 1L << 26;
    /** Default buckets per row. */
    public static final int DEFAULT_BUCKETS = 4;
    /** Default QHT fingerprint bits: four 16-bit cells fill one 64-bit word. */
    public static final int DEFAULT_FINGERPRINT_BITS = 16;
    /** Default SQF remainder bits. */
    public static final int DEFAULT_REMAINDER_BITS = 16;
    /** Default SQF reduced-remainder bits. */
    public static final int DEFAULT_REDUCED_BITS = 8;
    /** Largest table accepted: 2^43 bits (1 TiB). */
    public static final long MAX_MEMORY_BITS = 1L << 43;
    /** Largest cell: fingerprints and signatures of at most 32 bits. */
    public static final int MAX_SLOT_BITS = 32;

    private final FilterKind kind;
    private Long memoryBits;
    private Long rows;
    private Integer buckets;
    private Integer fingerprintBits;
    private Integer remainderBits;
    private Integer reducedBits;
    private Long seed;
    private boolean keyed;
    private Path file;

    FilterBuilder(final FilterKind kind)
    {
        if (kind == null)
        {
            throw new IllegalArgumentException("kind must be given");
        }
        this.kind = kind;
    }

    /**
     * @param memoryBits total memory M in bits; rows are N = ⌊M / (k · bits per cell)⌋.
     * @return this.
     */
    public FilterBuilder memoryBits(final long memoryBits)
    {
        this.memoryBits = memoryBits;
        return this;
    }

    /**
     * @param rows number of rows N, instead of {@link #memoryBits}.
     * @return this.
     */
    public FilterBuilder rows(final long rows)
    {
        this.rows = rows;
        return this;
    }

    /**
     * @param buckets cells per row k.
     * @return this.
     */
    public FilterBuilder buckets(final int buckets)
    {
        this.buckets = buckets;
        return this;
    }

    /**
     * @param fingerprintBits bits per fingerprint s (QHT, QHTD, QQHTD).
     * @return this.
     */
    public FilterBuilder fingerprintBits(final int fingerprintBits)
    {
        this.fingerprintBits = fingerprintBits;
        return this;
    }

    /**
     * @param remainderBits remainder bits r (SQF).
     * @return this.
     */
    public FilterBuilder remainderBits(final int remainderBits)
    {
        this.remainderBits = remainderBits;
        return this;
    }

    /**
     * @param reducedBits reduced-remainder bits r' (SQF), fewer than r.
     * @return this.
     */
    public FilterBuilder reducedBits(final int reducedBits)
    {
        this.reducedBits = reducedBits;
        return this;
    }

    /**
     * @param seed hash seed; without one a random seed is drawn at creation and kept in the header.
     * @return this.
     */
    public FilterBuilder seed(final long seed)
    {
        this.seed = seed;
        return this;
    }

    /**
     * @param keyed hash with SipHash-2-4 under a secret 128-bit key drawn at creation, for adversarial streams
     *              (seed 000 §7); the file is then created owner-only.
     * @return this.
     */
    public FilterBuilder keyed(final boolean keyed)
    {
        this.keyed = keyed;
        return this;
    }

    /**
     * @param file where the state lives; null (the default) for an anonymous file removed on close.
     * @return this.
     */
    public FilterBuilder file(final Path file)
    {
        this.file = file;
        return this;
    }

    /**
     * Resolves and checks the parameters.
     *
     * @return the parameters a new filter would have (with seed 0 when no seed was given).
     * @throws IllegalArgumentException saying which parameter is wrong and why.
     */
    public FilterParameters parameters()
    {
        return resolve(seed == null ? 0L : seed);
    }

    /**
     * Creates a new filter file (or an anonymous one) with these parameters.
     *
     * @return the filter.
     * @throws IllegalArgumentException for bad parameters.
     * @throws FilterFileException      when the file exists or cannot be created.
     */
    public DuplicateFilter create()
    {
        final SecureRandom random = new SecureRandom();
        final FilterParameters params = resolve(seed != null ? seed : random.nextLong());
        byte[] key = null;
        if (keyed)
        {
            key = new byte[FilterFileSpec.KEY_LENGTH];
            random.nextBytes(key);
        }
        final FilterFileSpec spec = new FilterFileSpec(
            kind.code(), params.hashAlgorithm().code(), params.seed(), key, params.toParams(),
            params.layout().tableBytes());
        return FilterFactory.create(file, spec);
    }

    /**
     * Opens the file if it exists, checking that every parameter set on this builder matches its header;
     * creates it otherwise.
     *
     * @return the filter.
     * @throws FilterFileException with reason PARAMETER_MISMATCH naming the first parameter that differs.
     */
    public DuplicateFilter openOrCreate()
    {
        if (file == null || !Files.exists(file))
        {
            return create();
        }
        final DuplicateFilter filter = Filters.open(file);
        try
        {
            checkMatches(filter.parameters());
            return filter;
        }
        catch (final RuntimeException e)
        {
            filter.close();
            throw e;
        }
    }

    /**
     * @param actual parameters read from a file.
     * @throws FilterFileException naming the first parameter set on this builder that differs.
     */
    void checkMatches(final FilterParameters actual)
    {
        mismatch("filter", kind.cliName(), actual.kind().cliName());
        if (memoryBits != null)
        {
            mismatch("memory-bits", memoryBits, actual.requestedMemoryBits());
        }
        if (rows != null)
        {
            mismatch("rows", rows, actual.rows());
        }
        if (buckets != null)
        {
            mismatch("buckets", buckets, actual.buckets());
        }
        if (fingerprintBits != null)
        {
            mismatch("fingerprint-bits", fingerprintBits, actual.fingerprintBits());
        }
        if (remainderBits != null)
        {
            mismatch("remainder-bits", remainderBits, actual.remainderBits());
        }
        if (reducedBits != null)
        {
            mismatch("reduced-bits", reducedBits, actual.reducedBits());
        }
        if (seed != null && !actual.keyed())
        {
            mismatch("seed", seed, actual.seed());
        }
        if (keyed && !actual.keyed())
        {
            mismatch("keyed", "true", "false");
        }
    }

    private void mismatch(final String name, final Object asked, final Object actual)
    {
        if (!asked.toString().equals(actual.toString()))
        {
            throw new FilterFileException(
                FilterFileException.Reason.PARAMETER_MISMATCH, file,
                "was made with " + name + "=" + actual + ", not " + name + "=" + asked);
        }
    }

    private FilterParameters resolve(final long seedValue)
    {
        final boolean sqf = kind == FilterKind.SQF;
        final int k = buckets != null ? buckets : DEFAULT_BUCKETS;
        require(k >= 1, "buckets must be at least 1, got " + k);
        int s = 0;
        int r = 0;
        int rr = 0;
        final int slotBits;
        if (sqf)
        {
            require(fingerprintBits == null, "--fingerprint-bits is for the QHT kinds; SQF takes " +
                "--remainder-bits and --reduced-bits");
            r = remainderBits != null ? remainderBits : DEFAULT_REMAINDER_BITS;
            rr = reducedBits != null ? reducedBits : Math.min(DEFAULT_REDUCED_BITS, r - 1);
            require(r >= 1 && r <= MAX_SLOT_BITS, "remainder-bits must be in 1.." + MAX_SLOT_BITS + ", got " + r);
            require(rr >= 0 && rr < r, "reduced-bits must be in 0..remainder-bits-1 (" + (r - 1) + "), got " + rr);
            slotBits = FilterParameters.sqfSignatureBits(r, rr);
            require(slotBits <= MAX_SLOT_BITS, "a signature of reduced-bits + ceil(log2(remainder-bits + 1)) = " +
                slotBits + " bits is more than " + MAX_SLOT_BITS);
        }
        else
        {
            require(remainderBits == null && reducedBits == null,
                "--remainder-bits and --reduced-bits are for SQF; " + kind.cliName() + " takes --fingerprint-bits");
            s = fingerprintBits != null ? fingerprintBits : DEFAULT_FINGERPRINT_BITS;
            require(s >= 1 && s <= MAX_SLOT_BITS, "fingerprint-bits must be in 1.." + MAX_SLOT_BITS + ", got " + s);
            slotBits = s;
        }
        require(memoryBits == null || rows == null, "give either memory-bits or rows, not both");
        final long n;
        final long m;
        if (rows != null)
        {
            n = rows;
            m = 0;
            require(n >= 1, "rows must be at least 1, got " + n);
            require(n <= MAX_MEMORY_BITS / ((long)k * slotBits),
                "rows x buckets x bits per cell exceeds the largest table, 2^43 bits");
        }
        else
        {
            m = memoryBits != null ? memoryBits : DEFAULT_MEMORY_BITS;
            require(m <= MAX_MEMORY_BITS, "memory-bits must be at most 2^43 (1 TiB), got " + m);
            require(m >= (long)k * slotBits, "memory-bits " + m + " is less than one row of " + k + " x " +
                slotBits + " = " + ((long)k * slotBits) + " bits (seed 000 Alg. 1 needs M > k·s)");
            n = m / ((long)k * slotBits);
        }
        final FilterParameters params = new FilterParameters(kind, n, k, s, r, rr, m,
            keyed ? HashAlgorithm.SIPHASH24_KEYED : HashAlgorithm.XXH3, seedValue);
        final long distinct = params.distinctFingerprints();
        require(k < distinct, "buckets (" + k + ") must be fewer than the " + distinct +
            " distinct non-empty " + (sqf ? "signatures" : "fingerprints") + ": a full row would then hold every " +
            "value and answer DUPLICATE to everything (FPR pinned at 1)" +
            (sqf ? "; raise remainder-bits or reduced-bits, or lower buckets" : "; raise fingerprint-bits"));
        return params;
    }

    private static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }
}
