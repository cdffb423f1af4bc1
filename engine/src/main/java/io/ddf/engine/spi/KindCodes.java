package io.ddf.engine.spi;

/**
 * The code a file header stores for each kind, and the kind's command-line name: the one table both the
 * definitions (which declare their code) and the embedder API's {@code FilterKind} (which names them) read, so that
 * the layers below the API need not name the API's enum. Codes are part of the file format: never renumber one.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 *
 * <p>The SQF paper: S. Dutta, A. Narang and S. K. Bera, "Streaming Quotient Filter: A Near Optimal Approximate
 * Duplicate Detection Approach for Data Streams", PVLDB 6(8), 2013.
 *
 * <p>The sampling Bloom filters paper: S. K. Bera, S. Dutta, A. Narang and S. Bhattacherjee, "Advanced Bloom Filter
 * Based Algorithms for Efficient Approximate Data De-Duplication in Streams", 2012 (arXiv:1212.3964).
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
public final class KindCodes
{
    /** Quotient Hash Table (QHT paper, Alg. 1). */
    public static final int QHT = 1;
    /** QHT that inserts duplicates too (QHT paper, §5.1). */
    public static final int QHTD = 2;
    /** Queued QHT with duplicates: FIFO rows (QHT paper, Alg. 2). */
    public static final int QQHTD = 3;
    /** Streaming Quotient Filter (SQF paper, Alg. 1). */
    public static final int SQF = 4;
    /** Dynamic SQF (SQF paper, §5.1). */
    public static final int DSQF = 5;
    /** Streaming cuckoo filter. */
    public static final int CUCKOO = 6;
    /** Bloom filter. */
    public static final int BLOOM = 10;
    /** Stable Bloom Filter. */
    public static final int SBF = 11;
    /** Reservoir-sampling-based Bloom filter (sampling Bloom filters paper, Alg. 1). */
    public static final int RSBF = 12;
    /** Biased-sampling-based Bloom filter (sampling Bloom filters paper, Alg. 2). */
    public static final int BSBF = 13;
    /** BSBF with single deletion (sampling Bloom filters paper, Alg. 3). */
    public static final int BSBFSD = 14;
    /** Randomized load-balanced BSBF (sampling Bloom filters paper, Alg. 4). */
    public static final int RLBSBF = 15;
    /** Aging Bloom filter with two active buffers. */
    public static final int A2 = 16;
    /** Block-decaying Bloom filter. */
    public static final int BDBF = 17;
    /** fifo-bloom: Bloom subfilters recycled oldest first past a capacity (the daemon's BF.RESERVE default). */
    public static final int FIFO_BLOOM = 18;
    /** aged-cuckoo: a window of time in one cuckoo table whose entries carry their generation's stamp (issue 29). */
    public static final int AGED_CUCKOO = 19;
    /** Exact windowed filter (sliding-window paper, Theorem 1). */
    public static final int EXACT_WINDOW = 20;
    /** Short Hash Filter (sliding-window paper, Alg. 1). */
    public static final int SHF = 21;
    /** Compact Short Hash Filter (sliding-window paper, §3.2). */
    public static final int CSHF = 22;
    /** The queuing construction over any other kind (sliding-window paper, Alg. 2). */
    public static final int QUEUE = 30;

    private KindCodes()
    {
    }

    /**
     * @param code a kind's code.
     * @return its lowercase command-line name.
     * @throws IllegalArgumentException for an unknown code.
     */
    public static String name(final int code)
    {
        switch (code)
        {
            case QHT: return "qht";
            case QHTD: return "qhtd";
            case QQHTD: return "qqhtd";
            case SQF: return "sqf";
            case DSQF: return "dsqf";
            case CUCKOO: return "cuckoo";
            case BLOOM: return "bloom";
            case SBF: return "sbf";
            case RSBF: return "rsbf";
            case BSBF: return "bsbf";
            case BSBFSD: return "bsbfsd";
            case RLBSBF: return "rlbsbf";
            case A2: return "a2";
            case BDBF: return "bdbf";
            case FIFO_BLOOM: return "fifo-bloom";
            case AGED_CUCKOO: return "aged-cuckoo";
            case EXACT_WINDOW: return "exact-window";
            case SHF: return "shf";
            case CSHF: return "cshf";
            case QUEUE: return "queue";
            default: throw new IllegalArgumentException("unknown filter kind code " + code);
        }
    }
}
