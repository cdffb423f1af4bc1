package io.ddf.engine;

import java.util.Locale;

/** Every filter kind ddf builds, with the code stored in a file's header and the name used on the command line. */
public enum FilterKind
{
    /** Quotient Hash Table (seed 000, Alg. 1). */
    QHT(1),
    /** QHT that inserts duplicates too (seed 000, §5.1). */
    QHTD(2),
    /** Queued QHT with duplicates: FIFO rows (seed 000, Alg. 2). */
    QQHTD(3),
    /** Streaming Quotient Filter (seed 004, Alg. 1). */
    SQF(4),
    /** Dynamic SQF: a pool of buckets shared by all rows, LRU eviction (seed 004, §5.1). */
    DSQF(5),
    /** Streaming cuckoo filter: bounded relocations, then the last victim is dropped (seed 000, footnote 4). */
    CUCKOO(6),
    /** Bloom filter, the saturating reference. */
    BLOOM(10),
    /** Stable Bloom Filter (Deng and Rafiei). */
    SBF(11),
    /** Reservoir-sampling-based Bloom filter (seed 003, Alg. 1). */
    RSBF(12),
    /** Biased-sampling-based Bloom filter (seed 003, Alg. 2). */
    BSBF(13),
    /** BSBF with single deletion (seed 003, Alg. 3). */
    BSBFSD(14),
    /** Randomized load-balanced BSBF (seed 003, Alg. 4). */
    RLBSBF(15),
    /** Aging Bloom filter with two active buffers (Yoon). */
    A2(16),
    /** Block-decaying Bloom filter (Shen and Zhang). */
    BDBF(17),
    /**
     * The capacity filter: Bloom subfilters of capacity / L new items each, the oldest recycled past capacity (the
     * queuing construction of seed 001 Alg. 2 counting only new items); BF.RESERVE's default.
     */
    FIFO_BLOOM(18),
    /** Exact windowed filter (seed 001, Theorem 1). */
    EXACT_WINDOW(20),
    /** Short Hash Filter (seed 001, Alg. 1). */
    SHF(21),
    /** Compact Short Hash Filter (seed 001, §3.2). */
    CSHF(22),
    /** The queuing construction over any other kind (seed 001, Alg. 2); chosen by a window and subfilters. */
    QUEUE(30);

    private final int code;

    FilterKind(final int code)
    {
        this.code = code;
    }

    /** @return the code stored in a file header. */
    public int code()
    {
        return code;
    }

    /** @return the lowercase command-line name. */
    public String cliName()
    {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @param code a header code.
     * @return the kind with that code.
     * @throws IllegalArgumentException for an unknown code.
     */
    public static FilterKind fromCode(final int code)
    {
        for (final FilterKind kind : values())
        {
            if (kind.code == code)
            {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown filter kind code " + code);
    }

    /**
     * @param name a command-line name, any case (the queuing construction is chosen by a window, not by name).
     * @return the kind.
     * @throws IllegalArgumentException naming the valid names.
     */
    public static FilterKind fromName(final String name)
    {
        for (final FilterKind kind : values())
        {
            if (kind != QUEUE && kind.cliName().equalsIgnoreCase(name))
            {
                return kind;
            }
        }
        final StringBuilder valid = new StringBuilder();
        for (final FilterKind kind : values())
        {
            if (kind != QUEUE)
            {
                valid.append(valid.length() == 0 ? "" : ", ").append(kind.cliName());
            }
        }
        throw new IllegalArgumentException("unknown filter '" + name + "' (valid: " + valid + ")");
    }
}
