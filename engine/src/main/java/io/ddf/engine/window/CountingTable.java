package io.ddf.engine.window;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.PackedCells;

/**
 * The dictionary D of the exact filter and of SHF (sliding-window paper Th. 1 and Alg. 1): key → number of times it is
 * in the window, in an open-addressing table with linear probing. Deletion is by backward shift (no tombstones), so the
 * table never degrades however long the stream; with T ≥ 2 × (most keys at once) cells the load stays ≤ ½.
 *
 * <p>A cell is one word (key in the low bits, count above it; 0 = empty, as a stored count is ≥ 1) when key and
 * count fit in 64 bits, otherwise two words (key, count; empty when the count is 0). Keys may be any value,
 * including 0.
 *
 * <p>Not thread-safe: callers write under their {@link io.ddf.engine.memory.SeqLock SeqLock} and read inside a
 * validated read.
 *
 * <p>The sliding-window paper: R. Géraud-Stewart, M. Lombard-Platet and D. Naccache, "Approaching Optimal Duplicate
 * Detection in a Sliding Window", COCOON 2020.
 */
final class CountingTable
{
    private static final long HOME_SALT = 0x632BE59BD9B4E019L;

    private final MappedWords words;
    private final long cellMask;
    private final int homeShift;
    private final boolean wide;
    private final int keyBits;
    private final long keyMask;

    /**
     * @param words    the table's words, {@link #words} of them.
     * @param cells    T, a power of two.
     * @param keyBits  bits of a key, 1..64.
     * @param maxCount the largest count (the window).
     */
    CountingTable(final MappedWords words, final long cells, final int keyBits, final long maxCount)
    {
        this.words = words;
        this.cellMask = cells - 1;
        this.homeShift = 64 - Long.numberOfTrailingZeros(cells);
        this.wide = !narrow(keyBits, maxCount);
        this.keyBits = keyBits;
        this.keyMask = PackedCells.mask(keyBits);
    }

    /**
     * @param maxKeys most distinct keys present at once.
     * @return T: the smallest power of two ≥ 2 × maxKeys, and at least 8 (one cache line of narrow cells).
     */
    static long cells(final long maxKeys)
    {
        final long atLeast = Math.max(8, 2 * maxKeys);
        return Long.highestOneBit(atLeast - 1) << 1;
    }

    /**
     * @param cells    T.
     * @param keyBits  bits of a key.
     * @param maxCount the largest count.
     * @return words the table needs.
     */
    static long words(final long cells, final int keyBits, final long maxCount)
    {
        return narrow(keyBits, maxCount) ? cells : 2 * cells;
    }

    private static boolean narrow(final int keyBits, final long maxCount)
    {
        return keyBits + (64 - Long.numberOfLeadingZeros(maxCount)) <= 64;
    }

    /**
     * @param key a key.
     * @return whether its count is positive.
     */
    boolean contains(final long key)
    {
        return find(key) >= 0;
    }

    /**
     * Adds one occurrence of a key.
     *
     * @param key a key.
     * @throws IllegalStateException when the table is full (torn by writers racing in single-writer mode).
     */
    void increment(final long key)
    {
        long i = home(key);
        // Bounded: the load stays <= 1/2, so a full probe run means a table torn by writers racing in single-writer
        // mode (keys counted twice, never removed), refused rather than probed for ever.
        for (long probes = 0; probes <= cellMask; probes++)
        {
            final long count = count(i);
            if (count == 0)
            {
                put(i, key, 1);
                return;
            }
            if (key(i) == key)
            {
                put(i, key, count + 1);
                return;
            }
            i = (i + 1) & cellMask;
        }
        throw new IllegalStateException("window table full: it disagrees with its ring");
    }

    /**
     * Removes one occurrence of a key, deleting it at 0.
     *
     * @param key a key present.
     * @throws IllegalStateException when the key is absent (the table disagrees with its ring).
     */
    void decrement(final long key)
    {
        final long i = find(key);
        if (i < 0)
        {
            throw new IllegalStateException("window table lost a key its ring holds");
        }
        final long count = count(i);
        if (count > 1)
        {
            put(i, key, count - 1);
            return;
        }
        // Backward-shift deletion: pull later cells of the probe run into the hole when their home allows it.
        long hole = i;
        long j = i;
        for (long probes = 0; probes < cellMask; probes++) // bounded, as increment's probe: a torn table may be full
        {
            j = (j + 1) & cellMask;
            final long c = count(j);
            if (c == 0)
            {
                break;
            }
            final long k = key(j);
            if (((j - home(k)) & cellMask) >= ((j - hole) & cellMask))
            {
                put(hole, k, c);
                hole = j;
            }
        }
        put(hole, 0, 0);
    }

    /** Empties the table. */
    void clear()
    {
        words.clear();
    }

    private long find(final long key)
    {
        long i = home(key);
        // Bounded, so that a lock-free reader racing a writer cannot chase a torn table for ever (it then retries).
        for (long probes = 0; probes <= cellMask; probes++)
        {
            if (count(i) == 0)
            {
                return -1;
            }
            if (key(i) == key)
            {
                return i;
            }
            i = (i + 1) & cellMask;
        }
        return -1;
    }

    private long home(final long key)
    {
        return Mix.mix64(key ^ HOME_SALT) >>> homeShift;
    }

    private long count(final long cell)
    {
        return wide ? words.getLongPlain(2 * cell + 1) : words.getLongPlain(cell) >>> keyBits;
    }

    private long key(final long cell)
    {
        return wide ? words.getLongPlain(2 * cell) : words.getLongPlain(cell) & keyMask;
    }

    private void put(final long cell, final long key, final long count)
    {
        if (wide)
        {
            words.putLongPlain(2 * cell, key);
            words.putLongPlain(2 * cell + 1, count);
        }
        else
        {
            words.putLongPlain(cell, count == 0 ? 0 : key | (count << keyBits));
        }
    }
}
