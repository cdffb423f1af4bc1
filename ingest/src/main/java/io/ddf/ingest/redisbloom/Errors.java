package io.ddf.ingest.redisbloom;

/**
 * RedisBloom 2.4.23's error texts, defined once for every layout: the requests' parsers ({@link ReserveRequest},
 * {@link InsertRequest}, {@link CuckooReserveRequest}, {@link CuckooInsertRequest}) and the semantics of the filters
 * that grow ({@link BloomSemantics}, {@link CuckooSemantics}) throw them, ddf's fixed-size filters' commands too,
 * so a client gets the same words for the same mistake whatever the key holds (each checked against redis-server
 * with redisbloom-2.4.23.so: RedisBloomRequestsTest, RedisBloomFlowIT). Some have no {@code ERR} prefix, as RedisBloom
 * writes them.
 */
public final class Errors
{
    /** BF.RESERVE's error rate is no number. */
    public static final String BAD_ERROR_RATE = "ERR bad error rate";
    /** BF.RESERVE's error rate is out of (0, 1); RedisBloom's text ends with a space. */
    public static final String ERROR_RATE_RANGE = "ERR (0 < error rate range < 1) ";
    /** BF.RESERVE's capacity is no number. */
    public static final String BAD_CAPACITY = "ERR bad capacity";
    /** BF.RESERVE's capacity is not positive. */
    public static final String CAPACITY_NOT_POSITIVE = "ERR (capacity should be larger than 0)";
    /** BF.RESERVE's EXPANSION is its last argument. */
    public static final String NO_EXPANSION = "ERR no expansion";
    /** BF.RESERVE's EXPANSION beside NONSCALING. */
    public static final String CANNOT_EXPAND = "Nonscaling filters cannot expand";
    /** BF.RESERVE's expansion is no number. */
    public static final String BAD_EXPANSION = "ERR bad expansion";
    /** CF.RESERVE's capacity, or BF.INSERT's and CF.INSERT's CAPACITY, is no number. */
    public static final String CAPACITY_NOT_A_NUMBER = "Bad capacity";
    /** BF.INSERT's ERROR is no number. */
    public static final String INSERT_BAD_ERROR_RATE = "Bad error rate";
    /** BF.INSERT's EXPANSION is no number. */
    public static final String INSERT_BAD_EXPANSION = "Bad expansion";
    /** BF.INSERT's capacity, error rate or expansion is out of range. */
    public static final String BAD_ARGUMENT = "Bad argument received";
    /** BF.INSERT's or CF.INSERT's option is none RedisBloom knows (by its first letter). */
    public static final String UNKNOWN_ARGUMENT = "Unknown argument received";
    /** CF.RESERVE's or CF.INSERT's capacity below two buckets. */
    public static final String CAPACITY_BELOW_BUCKETS = "Capacity must be at least (BucketSize * 2)";
    /** A missing key where the command needs one. */
    public static final String NOT_FOUND = "ERR not found";
    /** CF.DEL on a missing key. */
    public static final String DEL_NOT_FOUND = "Not found";
    /** BF.RESERVE, CF.RESERVE or a dump's header chunk on a key that holds a filter of the family. */
    public static final String ITEM_EXISTS = "ERR item exists";
    /** An add to a full NONSCALING chain. */
    public static final String FULL = "ERR non scaling filter is full";
    /** A filter the disk has no room for: RedisBloom's failed allocation. */
    public static final String NO_MEMORY = "ERR Insufficient memory to create filter";

    private Errors()
    {
    }

    /**
     * @param option CF.RESERVE's option, as RedisBloom names it ({@code MAXITERATIONS}).
     * @return RedisBloom's error for its value not being a number.
     */
    static String cannotParse(final String option)
    {
        return "Couldn't parse " + option;
    }

    /**
     * @param option CF.RESERVE's option.
     * @param min    its least value.
     * @param max    its greatest value.
     * @return RedisBloom's error for its value out of range.
     */
    static String outOfRange(final String option, final long min, final long max)
    {
        return option + ": value must be an integer between " + min + " and " + max + ", inclusive.";
    }
}
