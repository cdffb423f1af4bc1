package io.ddf.engine.spi;

/**
 * Parameters several kinds share, so that one name has one meaning and one help line on the command line.
 * A kind that takes one of these uses the constant here rather than its own definition.
 */
public final class CommonParams
{
    /** Total memory M in bits. */
    public static final ParamDef MEMORY_BITS = ParamDef.longOption("memory-bits",
        "Total memory M in bits (default depends on the kind).");
    /** Sliding window w, in elements. */
    public static final ParamDef WINDOW = ParamDef.longOption("window", "Sliding window w, in elements.");
    /** Number of hash functions K. */
    public static final ParamDef HASH_FUNCTIONS = ParamDef.longOption("hash-functions",
        "Number of hash functions K.");
    /** Target false positive rate. */
    public static final ParamDef TARGET_FPR = ParamDef.doubleOption("target-fpr", "Target false positive rate.");
    /** Cells per row or bucket. */
    public static final ParamDef BUCKETS = ParamDef.longOption("buckets", "Cells per row (or bucket) k.");
    /** Fingerprint bits. */
    public static final ParamDef FINGERPRINT_BITS = ParamDef.longOption("fingerprint-bits", "Fingerprint bits s.");

    private CommonParams()
    {
    }
}
