package io.ddf.engine.hash;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Austin Appleby's MurmurHash2 (32-bit) and MurmurHash64A, over a byte array, reading words little-endian as x86
 * does: the hashes RedisBloom's filters are built on (its Bloom filters take two of them per item, its cuckoo filter
 * one), so that a filter moved from RedisBloom answers as it did there.
 */
public final class Murmur2
{
    private static final int M32 = 0x5bd1e995;
    private static final long M64 = 0xc6a4a7935bd1e995L;
    /** A view of a caller's array, so that arrays and buffers share one implementation without allocating. */
    private static final ThreadLocal<UnsafeBuffer> ARRAY_VIEW = ThreadLocal.withInitial(() -> new UnsafeBuffer(0, 0));

    private Murmur2()
    {
    }

    /**
     * @param data   the bytes.
     * @param offset of the first.
     * @param length how many.
     * @param seed   the seed.
     * @return MurmurHash2 of the bytes, as an unsigned 32-bit value in a long.
     */
    public static long hash32(final byte[] data, final int offset, final int length, final int seed)
    {
        final UnsafeBuffer view = ARRAY_VIEW.get();
        view.wrap(data, offset, length);
        return hash32(view, 0, length, seed);
    }

    /**
     * @param data   the bytes.
     * @param offset of the first.
     * @param length how many.
     * @param seed   the seed.
     * @return MurmurHash2 of the bytes, as an unsigned 32-bit value in a long.
     */
    public static long hash32(final DirectBuffer data, final int offset, final int length, final int seed)
    {
        int h = seed ^ length;
        int i = offset;
        int remaining = length;
        while (remaining >= 4)
        {
            int k = data.getInt(i, ByteOrder.LITTLE_ENDIAN);
            k *= M32;
            k ^= k >>> 24;
            k *= M32;
            h *= M32;
            h ^= k;
            i += 4;
            remaining -= 4;
        }
        if (remaining > 0)
        {
            for (int t = remaining - 1; t >= 0; t--)
            {
                h ^= (data.getByte(i + t) & 0xFF) << (8 * t);
            }
            h *= M32;
        }
        h ^= h >>> 13;
        h *= M32;
        h ^= h >>> 15;
        return h & 0xFFFF_FFFFL;
    }

    /**
     * @param data   the bytes.
     * @param offset of the first.
     * @param length how many.
     * @param seed   the seed.
     * @return MurmurHash64A of the bytes.
     */
    public static long hash64(final byte[] data, final int offset, final int length, final long seed)
    {
        final UnsafeBuffer view = ARRAY_VIEW.get();
        view.wrap(data, offset, length);
        return hash64(view, 0, length, seed);
    }

    /**
     * @param data   the bytes.
     * @param offset of the first.
     * @param length how many.
     * @param seed   the seed.
     * @return MurmurHash64A of the bytes.
     */
    public static long hash64(final DirectBuffer data, final int offset, final int length, final long seed)
    {
        long h = seed ^ (length * M64);
        int i = offset;
        final int end = offset + (length & ~7);
        while (i < end)
        {
            long k = data.getLong(i, ByteOrder.LITTLE_ENDIAN);
            k *= M64;
            k ^= k >>> 47;
            k *= M64;
            h ^= k;
            h *= M64;
            i += 8;
        }
        final int tail = length & 7;
        if (tail > 0)
        {
            for (int t = tail - 1; t >= 0; t--)
            {
                h ^= (data.getByte(i + t) & 0xFFL) << (8 * t);
            }
            h *= M64;
        }
        h ^= h >>> 47;
        h *= M64;
        h ^= h >>> 47;
        return h;
    }
}
