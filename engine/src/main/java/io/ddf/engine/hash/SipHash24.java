package io.ddf.engine.hash;

import net.openhft.hashing.Access;
import net.openhft.hashing.LongHashFunction;

import java.nio.ByteOrder;

/**
 * SipHash-2-4 (Aumasson and Bernstein), a keyed PRF, as a zero-allocation-hashing {@link LongHashFunction}.
 *
 * <p>Why here and not a library call: Guava's {@code Hashing.sipHash24} allocates a hasher and a
 * {@code HashCode} per call, and zero-allocation-hashing has no SipHash. Extending the library's
 * {@link LongHashFunction} reuses its {@link Access} adapters, so one loop serves byte arrays, native memory and
 * buffers without allocating. Tests check it against Guava's implementation and the reference vectors.
 */
final class SipHash24 extends LongHashFunction
{
    private static final long serialVersionUID = 1L;

    private final long k0;
    private final long k1;

    /**
     * @param k0 first 8 key bytes, little-endian.
     * @param k1 last 8 key bytes, little-endian.
     */
    SipHash24(final long k0, final long k1)
    {
        this.k0 = k0;
        this.k1 = k1;
    }

    @Override
    public <T> long hash(final T input, final Access<T> access, final long off, final long len)
    {
        final Access<T> le = access.byteOrder(input, ByteOrder.LITTLE_ENDIAN);
        long v0 = k0 ^ 0x736f6d6570736575L;
        long v1 = k1 ^ 0x646f72616e646f6dL;
        long v2 = k0 ^ 0x6c7967656e657261L;
        long v3 = k1 ^ 0x7465646279746573L;
        final long end = off + (len & ~7L);
        for (long i = off; i < end; i += 8)
        {
            final long m = le.i64(input, i);
            v3 ^= m;
            for (int r = 0; r < 2; r++)
            {
                v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
                v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
                v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
                v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
            }
            v0 ^= m;
        }
        long last = (len & 0xFFL) << 56;
        final int tail = (int)(len & 7);
        for (int i = 0; i < tail; i++)
        {
            last |= ((long)le.u8(input, end + i)) << (8 * i);
        }
        return finish(v0, v1, v2, v3, last);
    }

    @Override
    public long hashLong(final long input)
    {
        long v0 = k0 ^ 0x736f6d6570736575L;
        long v1 = k1 ^ 0x646f72616e646f6dL;
        long v2 = k0 ^ 0x6c7967656e657261L;
        long v3 = k1 ^ 0x7465646279746573L;
        v3 ^= input;
        for (int r = 0; r < 2; r++)
        {
            v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
            v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
            v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
            v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
        }
        v0 ^= input;
        return finish(v0, v1, v2, v3, 8L << 56);
    }

    @Override
    public long hashInt(final int input)
    {
        return shortInput(input & 0xFFFFFFFFL, 4);
    }

    @Override
    public long hashShort(final short input)
    {
        return shortInput(input & 0xFFFFL, 2);
    }

    @Override
    public long hashChar(final char input)
    {
        return shortInput(input, 2);
    }

    @Override
    public long hashByte(final byte input)
    {
        return shortInput(input & 0xFFL, 1);
    }

    @Override
    public long hashVoid()
    {
        return shortInput(0, 0);
    }

    private long shortInput(final long littleEndianBytes, final int length)
    {
        final long v0 = k0 ^ 0x736f6d6570736575L;
        final long v1 = k1 ^ 0x646f72616e646f6dL;
        final long v2 = k0 ^ 0x6c7967656e657261L;
        final long v3 = k1 ^ 0x7465646279746573L;
        return finish(v0, v1, v2, v3, ((long)length << 56) | littleEndianBytes);
    }

    private static long finish(long v0, long v1, long v2, long v3, final long last)
    {
        v3 ^= last;
        for (int r = 0; r < 2; r++)
        {
            v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
            v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
            v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
            v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
        }
        v0 ^= last;
        v2 ^= 0xFF;
        for (int r = 0; r < 4; r++)
        {
            v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
            v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
            v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
            v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
        }
        return v0 ^ v1 ^ v2 ^ v3;
    }
}
