package io.ddf.ingest.redisbloom;

/**
 * RedisBloom 2.4.23's error texts, defined once for every layout: the filters that grow answer them through
 * {@link BloomSemantics} and {@link CuckooSemantics}, ddf's fixed-size filters through their commands, so a client
 * gets the same words for the same mistake whatever the key holds (checked against redis-server with
 * redisbloom-2.4.23.so: BloomSemanticsTest, CuckooSemanticsTest).
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
    /** CF.RESERVE's capacity, or BF.INSERT's and CF.INSERT's CAPACITY, is no number (no ERR prefix). */
    public static final String CAPACITY_NOT_A_NUMBER = "Bad capacity";
    /** A missing key where the command needs one. */
    public static final String NOT_FOUND = "ERR not found";
    /** CF.DEL on a missing key (no ERR prefix). */
    public static final String DEL_NOT_FOUND = "Not found";

    private Errors()
    {
    }
}
