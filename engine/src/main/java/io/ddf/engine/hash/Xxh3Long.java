package io.ddf.engine.hash;

/**
 * XXH3-64 of exactly 8 bytes under a seed, bit for bit the value of zero-allocation-hashing's
 * {@code LongHashFunction.xx3(seed).hashBytes} of the same 8 bytes, in a few instructions: XXH3's 4-to-8-byte path
 * (xxhash.h, {@code XXH3_len_4to8_64b}) with everything that depends only on the seed folded into one constant at
 * construction. The library's {@code hashLong} takes the general path (an {@code Access} object, length dispatch);
 * the profile of QHT {@code stream(long)} at 1 Mbit put ~25 % of its samples there ({@code bench/profile-hotpath.sh
 * '1 Mbit QHT.*single-writer' ...}). {@code Xxh3LongTest} checks the equality on random seeds and values.
 */
final class Xxh3Long
{
    /** XXH3's default secret, bytes 8..15 and 16..23, read little-endian (xxhash.h, XXH3_kSecret). */
    private static final long SECRET_8 = 0x1cad21f72c81017cL;
    private static final long SECRET_16 = 0xdb979083e96dd4deL;
    /** The multiplier of XXH3's rrmxmx finaliser. */
    private static final long PRIME_MX2 = 0x9FB21C651E98DF25L;
    private static final long LENGTH = 8;

    private final long bitflip;

    /** @param seed the XXH3 seed. */
    Xxh3Long(final long seed)
    {
        final long mixedSeed = seed ^ ((Integer.reverseBytes((int)seed) & 0xFFFFFFFFL) << 32);
        this.bitflip = (SECRET_8 ^ SECRET_16) - mixedSeed;
    }

    /**
     * @param littleEndian the 8 bytes as a little-endian long (their first byte in the low bits).
     * @return their XXH3-64 hash.
     */
    long hash(final long littleEndian)
    {
        // input1 = the first 4 bytes, input2 = the last 4: input64 = input2 + (input1 << 32), a rotation by 32
        long h = Long.rotateLeft(littleEndian, 32) ^ bitflip;
        h ^= Long.rotateLeft(h, 49) ^ Long.rotateLeft(h, 24);
        h *= PRIME_MX2;
        h ^= (h >>> 35) + LENGTH;
        h *= PRIME_MX2;
        return h ^ (h >>> 28);
    }
}
