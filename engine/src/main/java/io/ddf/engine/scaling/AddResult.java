package io.ddf.engine.scaling;

/** What adding an item to a scaling Bloom filter did (RedisBloom's {@code SBChain_Add} outcomes). */
public enum AddResult
{
    /** The item was new and is now in the newest layer (BF.ADD's 1). */
    ADDED,
    /** The item was there already, or a false positive says so: nothing changed (0). */
    EXISTS,
    /** A filter that does not scale is full: nothing changed ({@code ERR non scaling filter is full}). */
    FULL,
    /**
     * The newest layer is full and a next one cannot be made (an expansion of 0, a capacity past 2^63, or the most
     * layers a file holds): nothing changed. RedisBloom answers such an add with 1.
     */
    NOT_GROWN
}
