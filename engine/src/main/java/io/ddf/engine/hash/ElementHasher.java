package io.ddf.engine.hash;

import net.openhft.hashing.LongHashFunction;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Hashes an element, given in any of its forms, to 64 bits. An element is its bytes: a long is its 8
 * little-endian bytes and text its UTF-8 bytes, so every form of the same bytes hashes alike.
 */
public final class ElementHasher
{
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final ThreadLocal<byte[]> UTF8_SCRATCH = ThreadLocal.withInitial(() -> new byte[256]);

    /** Header code of XXH3-64 under the header's seed. */
    public static final int XXH3 = 1;
    /** Header code of SipHash-2-4 under the header's 128-bit key. */
    public static final int SIPHASH24_KEYED = 2;

    private final LongHashFunction function;
    /** XXH3's 8-byte path, when the function is XXH3 (same values, without the library's general path). */
    private final Xxh3Long xxh3Long;

    ElementHasher(final LongHashFunction function, final Xxh3Long xxh3Long)
    {
        this.function = function;
        this.xxh3Long = xxh3Long;
    }

    /**
     * @param algorithm the header's hash algorithm code ({@link #XXH3} or {@link #SIPHASH24_KEYED}).
     * @param seed      the header's seed (XXH3).
     * @param key       the header's 16-byte key (SipHash), or null.
     * @return the hasher.
     */
    public static ElementHasher of(final int algorithm, final long seed, final byte[] key)
    {
        switch (algorithm)
        {
            case XXH3:
                return new ElementHasher(LongHashFunction.xx3(seed), new Xxh3Long(seed));
            case SIPHASH24_KEYED:
                if (key == null || key.length != 16)
                {
                    throw new IllegalArgumentException("keyed hashing needs a 16-byte key");
                }
                return new ElementHasher(new SipHash24(littleEndianLong(key, 0), littleEndianLong(key, 8)), null);
            default:
                throw new IllegalArgumentException("unknown hash algorithm code " + algorithm);
        }
    }

    private static long littleEndianLong(final byte[] bytes, final int offset)
    {
        long value = 0;
        for (int i = 7; i >= 0; i--)
        {
            value = (value << 8) | (bytes[offset + i] & 0xFFL);
        }
        return value;
    }

    public long hash(final long element)
    {
        if (xxh3Long != null)
        {
            return xxh3Long.hash(element);
        }
        return function.hashLong(NATIVE_LITTLE_ENDIAN ? element : Long.reverseBytes(element));
    }

    public long hash(final byte[] bytes, final int offset, final int length)
    {
        return function.hashBytes(bytes, offset, length);
    }

    public long hash(final DirectBuffer buffer, final int offset, final int length)
    {
        buffer.boundsCheck(offset, length);
        final byte[] array = buffer.byteArray();
        if (array != null)
        {
            final int base = (int)(buffer.addressOffset() - BufferUtil.ARRAY_BASE_OFFSET);
            return function.hashBytes(array, base + offset, length);
        }
        return function.hashMemory(buffer.addressOffset() + offset, length);
    }

    public long hash(final CharSequence text)
    {
        final int chars = text.length();
        byte[] scratch = UTF8_SCRATCH.get();
        if (scratch.length < chars * 3)
        {
            scratch = new byte[Math.max(chars * 3, scratch.length * 2)];
            UTF8_SCRATCH.set(scratch);
        }
        final int length = Utf8.encode(text, scratch);
        return function.hashBytes(scratch, 0, length);
    }
}
