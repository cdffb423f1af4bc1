package io.ddf.bench;

/**
 * QHT's algorithm (k = 4, s = 16, one row per word) written out in a loop over a heap {@code long[]}: no file, no
 * counters, no calls, the hash inlined. Not a filter anyone should use (nothing is persisted, one thread only): a
 * floor, to tell what of {@code stream}'s time is the algorithm and what is ddf. Two derivations of the cell
 * values from the element's 64-bit hash:
 * <ul>
 *   <li>ddf's file format (seed 000 §3.2): the fingerprint is a re-mix of the hash (SplitMix64's finaliser, two
 *       multiplications, again while zero) and a full row's victim another re-mix: the same verdicts as ddf's QHT
 *       of the same seed;</li>
 *   <li>one hash: the fingerprint is the hash's low 16 bits and the victim two bits above them (the row takes the
 *       high bits): what a format version with a cheaper derivation could reach. Different verdicts, same
 *       statistics if the hash is good.</li>
 * </ul>
 */
final class QhtReplica
{
    private static final long GAMMA = 0x9E3779B97F4A7C15L;
    private static final long PRIME_MX2 = 0x9FB21C651E98DF25L;
    private static final long EVICTION_SALT = 0x5DEECE66DL * 0x2545F4914F6CDD1DL;
    private static final long LANES_LOW = 0x0001_0001_0001_0001L;
    private static final long LANES_HIGH = LANES_LOW << 15;
    private static final long CELL_MASK = 0xFFFF;

    private final long[] rows;
    private final long bitflip;
    private final boolean oneHash;

    /**
     * @param memoryBits the table's bits (64 per row).
     * @param seed       the XXH3 seed.
     * @param oneHash    the one-hash derivation (see the class comment) instead of ddf's.
     */
    QhtReplica(final long memoryBits, final long seed, final boolean oneHash)
    {
        this.rows = new long[Math.toIntExact(memoryBits / Long.SIZE)];
        final long mixedSeed = seed ^ ((Integer.reverseBytes((int)seed) & 0xFFFFFFFFL) << 32);
        this.bitflip = (0x1cad21f72c81017cL ^ 0xdb979083e96dd4deL) - mixedSeed;
        this.oneHash = oneHash;
    }

    private static long mix64(final long value)
    {
        long z = (value ^ (value >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static long remixedNonZero(final long hash)
    {
        long x = hash;
        long cell;
        do
        {
            x = mix64(x + GAMMA);
            cell = x & CELL_MASK;
        }
        while (cell == 0);
        return cell;
    }

    /**
     * @param element the element.
     * @return whether it was judged DUPLICATE; the row now records it.
     */
    boolean stream(final long element)
    {
        long h = Long.rotateLeft(element, 32) ^ bitflip;
        h ^= Long.rotateLeft(h, 49) ^ Long.rotateLeft(h, 24);
        h *= PRIME_MX2;
        h ^= (h >>> 35) + Long.BYTES;
        h *= PRIME_MX2;
        h ^= h >>> 28;
        final int row = (int)(Math.multiplyHigh(h, rows.length) + ((h >> 63) & rows.length));
        long cell = oneHash ? h & CELL_MASK : remixedNonZero(h);
        if (cell == 0)
        {
            cell = remixedNonZero(h);
        }
        final long word = rows[row];
        final long probe = word ^ cell * LANES_LOW;
        if (((probe - LANES_LOW) & ~probe & LANES_HIGH) != 0)
        {
            return true;
        }
        final long empty = (word - LANES_LOW) & ~word & LANES_HIGH;
        if (empty != 0)
        {
            rows[row] = word | cell << (Long.numberOfTrailingZeros(empty) - 15);
        }
        else
        {
            final int victim = oneHash ? (int)(h >>> 16) & 3 :
                (int)(Math.multiplyHigh(mix64(h ^ EVICTION_SALT), 4) + ((mix64(h ^ EVICTION_SALT) >> 63) & 4));
            final int shift = victim * 16;
            rows[row] = (word & ~(CELL_MASK << shift)) | cell << shift;
        }
        return false;
    }
}
