package io.ddf.bench.jmh;

import java.util.SplittableRandom;

/**
 * Pre-generated random keys of one length, in one flat array (no per-key object, so reading a key costs the same
 * for every implementation measured). About {@link #POOL_BYTES} of keys: far more than any cache, so reading them
 * streams from memory as a real feed would.
 */
public final class KeyPool
{
    /** Size of the pool: 64 MiB of keys (8 Mi keys of 8 bytes, 1 Mi keys of 64 bytes). */
    public static final int POOL_BYTES = 64 << 20;

    private final int keyBytes;
    private final int count;
    private final long[] longs;
    private final byte[] bytes;

    /**
     * @param keyBytes length of a key: 8 (kept as longs) or a multiple of 8.
     * @param seed     of the generator.
     */
    public KeyPool(final int keyBytes, final long seed)
    {
        if (keyBytes < 8 || keyBytes % 8 != 0)
        {
            throw new IllegalArgumentException("key bytes must be a positive multiple of 8, got " + keyBytes);
        }
        this.keyBytes = keyBytes;
        this.count = POOL_BYTES / keyBytes;
        final SplittableRandom random = new SplittableRandom(seed);
        if (keyBytes == Long.BYTES)
        {
            longs = random.longs(count).toArray();
            bytes = null;
        }
        else
        {
            longs = null;
            bytes = new byte[POOL_BYTES];
            random.nextBytes(bytes);
        }
    }

    /** @return bytes per key. */
    public int keyBytes()
    {
        return keyBytes;
    }

    /** @return number of keys; a power of two. */
    public int count()
    {
        return count;
    }

    /** @return the keys when 8 bytes long, else null. */
    long[] longs()
    {
        return longs;
    }

    /** @return the keys one after another when longer than 8 bytes, else null. */
    byte[] bytes()
    {
        return bytes;
    }
}
