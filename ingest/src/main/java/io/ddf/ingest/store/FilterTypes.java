package io.ddf.ingest.store;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.scaling.RedisCuckoo;
import io.ddf.engine.scaling.ScalingFilter;

/**
 * Which RedisBloom type a key's filter is, for TYPE and SCAN TYPE and for the WRONGTYPE refusals (a {@link WrongTypeException}, which the protocol answers with Redis's WRONGTYPE). A filter that
 * keeps one entry per insertion it can find again ({@link DuplicateFilter#counting()}: the cuckoo kind, not
 * windowed; what CF.RESERVE and CF.ADD make) is a cuckoo filter, {@code MBbloomCF}, served by CF.*; every other
 * filter is of the Bloom family, {@code MBbloom--}, served by BF.*. RedisBloom refuses a command of one family on a
 * key of the other with Redis's WRONGTYPE, so a client that mixes them up learns it instead of getting a verdict
 * from a filter that does not mean what it asked.
 */
public final class FilterTypes
{
    /** RedisBloom's type name of a Bloom filter. */
    static final String BLOOM = "MBbloom--";
    /** RedisBloom's type name of a cuckoo filter. */
    static final String CUCKOO = "MBbloomCF";

    private FilterTypes()
    {
    }

    /**
     * @param filter a key's filter.
     * @return its type name: {@link #CUCKOO} or {@link #BLOOM}.
     */
    static String name(final DuplicateFilter filter)
    {
        return filter.counting() ? CUCKOO : BLOOM;
    }

    /**
     * @param store the filters.
     * @param key   a key.
     * @return a lease on the key's Bloom-family filter (close it), or null when the key is missing.
     * @throws WrongTypeException when the key holds a filter of the other family.
     */
    public static FilterStore.Lease bloom(final FilterStore store, final String key)
    {
        return lease(store, key, false);
    }

    /**
     * @param store the filters.
     * @param key   a key.
     * @return a lease on the key's cuckoo filter (close it), or null when the key is missing.
     * @throws WrongTypeException when the key holds a filter of the other family.
     */
    public static FilterStore.Lease cuckoo(final FilterStore store, final String key)
    {
        return lease(store, key, true);
    }

    /**
     * Refuses a key holding a filter of the other family before a command reads its arguments further.
     *
     * @param store  the filters.
     * @param key    a key.
     * @param cuckoo whether the command is of the CF.* family.
     * @throws WrongTypeException when the key holds a filter of the other family.
     */
    public static void require(final FilterStore store, final String key, final boolean cuckoo)
    {
        final FilterStore.Lease lease = lease(store, key, cuckoo);
        if (lease != null)
        {
            lease.close();
        }
    }

    /**
     * @param store  the filters.
     * @param key    a key.
     * @param cuckoo whether the command is of the CF.* family.
     * @return a lease on the key's filter of that family (close it), or null when the key is missing.
     * @throws WrongTypeException when the key holds a filter of the other family.
     */
    public static FilterStore.Lease lease(final FilterStore store, final String key, final boolean cuckoo)
    {
        final FilterStore.Lease lease = store.acquire(key);
        if (lease != null && lease.filter().counting() != cuckoo)
        {
            lease.close();
            throw new WrongTypeException();
        }
        return lease;
    }

    /**
     * @param store the filters.
     * @param key   a key.
     * @return TYPE's answer: {@code MBbloomCF} for a cuckoo filter, {@code MBbloom--} for another filter
     *         ({@link FilterTypes}), {@code unknown} for a file that is not one, {@code none}.
     */
    public static String type(final FilterStore store, final String key)
    {
        final DuplicateFilter filter = store.get(key);
        if (filter != null)
        {
            return FilterTypes.name(filter);
        }
        if (store.isForeign(key))
        {
            return "unknown";
        }
        if (!store.scaling().has(key))
        {
            return "none";
        }
        try
        {
            return store.scaling().use(key, f -> f == null ? "none" : name(f));
        }
        catch (final IllegalStateException cannotOpen)
        {
            return "unknown";
        }
    }

    /**
     * @param filter a key's filter that grows.
     * @return its type name: {@link #CUCKOO} for RedisBloom's cuckoo filter, else {@link #BLOOM}.
     */
    static String name(final ScalingFilter filter)
    {
        return filter instanceof RedisCuckoo ? CUCKOO : BLOOM;
    }
}
