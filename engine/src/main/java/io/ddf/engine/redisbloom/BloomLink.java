package io.ddf.engine.redisbloom;

/**
 * One layer of RedisBloom's scaling Bloom filter, as its dump header describes it: the shape (bytes, bits, hash
 * count, the power of two {@code n2} of a rounded layer or 0), the capacity it was made for ({@code entries}), its
 * error rate and bits per entry, and how many items it holds ({@code size}).
 *
 * <p>{@link #create} sizes a new layer exactly as RedisBloom 2.4's {@code bloom_init} does, so that a layer made here
 * has the bytes and hash count of one made there: bits per entry {@code |ln ε| / ln² 2}, hashes
 * {@code ⌈ln 2 · bpe⌉}; with {@link #NOROUND} (every filter RedisBloom 2.x makes) bits {@code ⌊entries · bpe⌋},
 * else the next power of two above it (and the capacity raised by what the extra bits hold); bytes the bits rounded
 * up to whole 64-bit words.
 */
public record BloomLink(long bytes, long bits, long size, double error, double bpe, int hashes, long entries, int n2)
{
    /** Option bit: bits not rounded to a power of two. */
    public static final int NOROUND = 1;
    /** Option bit: {@code entries} is a number of bits (log2), not of items. */
    public static final int ENTS_IS_BITS = 2;
    /** Option bit: 64-bit hashing (MurmurHash64A); without it, 32-bit MurmurHash2. */
    public static final int FORCE64 = 4;
    /** Option bit: the chain never gains a layer; a full filter refuses new items. */
    public static final int NO_SCALING = 8;
    /** Every option bit RedisBloom knows. */
    public static final int KNOWN_OPTIONS = NOROUND | ENTS_IS_BITS | FORCE64 | NO_SCALING;

    /** ln 2 with the digits RedisBloom uses (hash count). */
    public static final double LN2 = 0.693147180559945;
    /** ln² 2 with the digits RedisBloom uses (bits per entry). */
    public static final double LN2_SQUARED = 0.480453013918201;

    /**
     * Sizes a new, empty layer as RedisBloom's {@code bloom_init}.
     *
     * @param entries the items it is made for, at least 1.
     * @param error   its error rate, in (0, 1).
     * @param options the chain's option bits.
     * @return the layer, with size 0.
     * @throws IllegalArgumentException where {@code bloom_init} fails.
     */
    public static BloomLink create(final long entries, final double error, final int options)
    {
        if (entries < 1 || !(error > 0) || error >= 1.0)
        {
            throw new IllegalArgumentException("a Bloom layer needs entries >= 1 and 0 < error < 1 (entries " +
                entries + ", error " + error + ")");
        }
        final double bpe = bitsPerEntry(error);
        long capacity = entries;
        final long bits;
        int n2 = 0;
        if ((options & ENTS_IS_BITS) != 0)
        {
            if (entries > 64)
            {
                throw new IllegalArgumentException("a Bloom layer of 2^" + entries + " bits is too large");
            }
            n2 = (int)entries;
            bits = 1L << n2;
            capacity = (long)(unsignedToDouble(bits) / bpe);
        }
        else if ((options & NOROUND) != 0)
        {
            bits = Math.max(1, toUnsigned((double)entries * bpe));
        }
        else
        {
            final double exact = (double)entries * bpe;
            final int exponent = Math.getExponent(exact);
            if (exponent > 63 || Double.isInfinite(exact))
            {
                throw new IllegalArgumentException("a Bloom layer of " + exact + " bits is too large");
            }
            n2 = exponent + 1;
            bits = 1L << n2;
            final long bitDiff = toUnsigned(unsignedToDouble(bits) - exact);
            capacity += (long)(bitDiff / bpe);
        }
        final long bytes = Long.remainderUnsigned(bits, 64) != 0 ? (Long.divideUnsigned(bits, 64) + 1) * 8 :
            Long.divideUnsigned(bits, 8);
        return new BloomLink(bytes, bytes * 8, 0, error, bpe, hashesFor(bpe), capacity, n2);
    }

    /**
     * @param error an error rate.
     * @return RedisBloom's bits per entry for it.
     */
    public static double bitsPerEntry(final double error)
    {
        return Math.abs(-(StrictMath.log(error) / LN2_SQUARED));
    }

    /**
     * @param bpe bits per entry.
     * @return RedisBloom's hash count for it.
     */
    public static int hashesFor(final double bpe)
    {
        return (int)Math.ceil(LN2 * bpe);
    }

    /**
     * Checks what RedisBloom's {@code bloom_validate_integrity} checks of a layer read from a dump, and that its
     * bytes fit a file.
     *
     * @throws RedisBloomFormatException {@code ERR received bad data}, saying which rule failed.
     */
    public void validate()
    {
        if (!(error > 0) || error >= 1.0 || n2 < 0 || n2 > 63 || n2 != 0 && Long.compareUnsigned(bits, 1L << n2) < 0 ||
            bits == 0 || bytes <= 0 || bits != bytes * 8 || bytes % 8 != 0 || hashes != hashesFor(bpe) ||
            hashes <= 0 || size < 0)
        {
            throw new RedisBloomFormatException("ERR received bad data", "inconsistent Bloom layer " + this);
        }
    }

    /**
     * @param newSize the layer's new item count.
     * @return this layer holding {@code newSize} items.
     */
    public BloomLink withSize(final long newSize)
    {
        return new BloomLink(bytes, bits, newSize, error, bpe, hashes, entries, n2);
    }

    private static long toUnsigned(final double value)
    {
        if (value >= 0x1p63)
        {
            return (long)(value - 0x1p63) ^ Long.MIN_VALUE;
        }
        return (long)value;
    }

    private static double unsignedToDouble(final long value)
    {
        return value >= 0 ? value : (double)(value >>> 1) * 2.0;
    }
}
