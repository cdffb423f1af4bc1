package io.ddf.engine.spi;

/**
 * A core that keeps one entry per insertion it can find again (the cuckoo filter's fingerprints), so it can also
 * insert a second copy of an element, delete one copy and count the copies: RedisBloom's CF.ADD, CF.DEL and
 * CF.COUNT. Each call is atomic with respect to the core's other operations, as its {@code stream} is.
 */
public interface CountingCore extends FilterCore
{
    /**
     * Inserts one more copy of the element, whether or not it is present (it may displace, and at worst drop,
     * another entry, as {@code stream} does).
     *
     * @param hash the element's hash.
     */
    void add(long hash);

    /**
     * @param hash the element's hash.
     * @return whether a copy was found and removed (one copy; a false positive removes another element's entry).
     */
    boolean delete(long hash);

    /**
     * @param hash the element's hash.
     * @return how many entries match it: an upper bound on its copies present (false positives add to it).
     */
    int count(long hash);

    /** @return copies deleted over the file's lifetime (RedisBloom's "Number of items deleted"). */
    long deletions();
}
