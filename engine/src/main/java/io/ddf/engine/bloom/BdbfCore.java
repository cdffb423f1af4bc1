package io.ddf.engine.bloom;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.PackedCells;
import io.ddf.engine.spi.FilterCore;

/**
 * Block-decaying Bloom filter (Shen and Zhang 2008) in an exact-time form. The definition: m counters, K per
 * element; an arrival sets its K counters to w and every arrival decrements every counter by one, so a counter is
 * non-zero exactly while the element that last set it is among the last w arrivals; DUPLICATE iff all K counters
 * are non-zero. Here a cell stores instead the arrival time (mod R) of its last set, and a cell counts as non-zero
 * iff the current time minus that stamp is at most w: the same verdict, element for element, as the counters that
 * decay by one per arrival (the value such a counter would hold is w − age), without touching every counter on
 * every arrival.
 *
 * <p>Stamps are kept mod R = 2^b − 1 (0 marks a cell never set, so a stamp is (t mod R) + 1). So that an old stamp
 * is never mistaken for a recent one after the time wraps, each arrival also sweeps a block of ⌈m / w⌉ cells,
 * clearing those whose stamp has expired: the sweep covers the table within w arrivals, so no stamp older than 2w
 * survives, and R ≥ 3w + 2 leaves ages in (2w + 1, R) to mean "set by a concurrent arrival later than mine". That
 * sweep is the block form's "one block per arrival"; the price is b = ⌈log2(3w + 3)⌉ bits per cell instead of the
 * definition's ⌈log2(w + 1)⌉.
 *
 * <p>Every arrival (duplicate or not) refreshes its K cells, as the counters are reset to w on every arrival. The
 * clock is a word of the region, advanced by one getAndAdd per {@code stream}; {@code contains} reads it without
 * advancing it. Each cell update is one compare-and-swap that never replaces a newer stamp by an older one; an
 * element's K cells are not isolated from other threads' updates.
 */
final class BdbfCore implements FilterCore
{
    /** The clock's cache line, then the cells. */
    static final long STATE_WORDS = 8;
    private static final long CLOCK_WORD = 0;

    private final MappedWords region;
    private final MappedWords table;
    private final PackedCells layout;
    private final long m;
    private final int k;
    private final long window;
    private final long modulus;
    private final long expiredUpTo;
    private final long blockCells;
    private final long blocks;

    BdbfCore(final MappedWords region, final PackedCells layout, final int k, final long window)
    {
        this.region = region;
        this.table = region.slice(STATE_WORDS, layout.words());
        this.layout = layout;
        this.m = layout.cells();
        this.k = k;
        this.window = window;
        this.modulus = layout.cellMask();
        this.expiredUpTo = 2 * window + 1;
        this.blockCells = (m + window - 1) / window;
        this.blocks = (m + blockCells - 1) / blockCells;
    }

    /**
     * @param window w.
     * @return b, the fewest bits with 2^b − 1 ≥ 3w + 2.
     */
    static int stampBits(final long window)
    {
        return 64 - Long.numberOfLeadingZeros(3 * window + 2);
    }

    @Override
    public boolean stream(final long hash)
    {
        final long t = region.getAndAddLong(CLOCK_WORD, 1);
        final boolean duplicate = liveAt(hash, t);
        sweep(t);
        final long stamp = t % modulus + 1;
        final long step = Hashes.step(hash);
        for (int i = 0; i < k; i++)
        {
            refresh(Hashes.position(hash, step, i, m), t, stamp);
        }
        return duplicate;
    }

    @Override
    public boolean contains(final long hash)
    {
        return liveAt(hash, region.getLongVolatile(CLOCK_WORD));
    }

    @Override
    public void clear()
    {
        region.clear();
    }

    /** @return arrivals so far. */
    long clock()
    {
        return region.getLongVolatile(CLOCK_WORD);
    }

    private boolean liveAt(final long hash, final long t)
    {
        final long step = Hashes.step(hash);
        for (int i = 0; i < k; i++)
        {
            final long cell = Hashes.position(hash, step, i, m);
            final long stamp = (table.getLongVolatile(layout.wordOf(cell)) >>> layout.shiftOf(cell)) & modulus;
            if (stamp == 0)
            {
                return false;
            }
            final long age = age(stamp, t);
            if (age > window && age <= expiredUpTo)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param stamp a non-zero cell.
     * @param t     the current time.
     * @return arrivals since the stamp, mod R.
     */
    private long age(final long stamp, final long t)
    {
        final long age = t % modulus - (stamp - 1);
        return age < 0 ? age + modulus : age;
    }

    private void refresh(final long cell, final long t, final long stamp)
    {
        final long wordIndex = layout.wordOf(cell);
        final int shift = layout.shiftOf(cell);
        while (true)
        {
            final long word = table.getLongVolatile(wordIndex);
            final long current = PackedCells.get(word, shift, modulus);
            if (current == stamp || (current != 0 && age(current, t) > expiredUpTo))
            {
                return; // already this arrival's, or a later arrival's
            }
            final long updated = PackedCells.with(word, shift, modulus, stamp);
            if (table.compareAndSetLong(wordIndex, word, updated))
            {
                return;
            }
        }
    }

    /** Clears the expired stamps of block t mod ⌈m / B⌉ (B = ⌈m / w⌉ cells), one compare-and-swap per word. */
    private void sweep(final long t)
    {
        final long first = (t % blocks) * blockCells;
        final long end = Math.min(m, first + blockCells);
        final int perWord = layout.cellsPerWord();
        final int bits = layout.cellBits();
        long cell = first;
        while (cell < end)
        {
            final long wordIndex = layout.wordOf(cell);
            final int from = (int)(cell - wordIndex * perWord);
            final int to = (int)Math.min(perWord, from + (end - cell));
            while (true)
            {
                final long word = table.getLongVolatile(wordIndex);
                long updated = word;
                for (int j = from, shift = from * bits; j < to; j++, shift += bits)
                {
                    final long stamp = PackedCells.get(word, shift, modulus);
                    if (stamp != 0)
                    {
                        final long age = age(stamp, t);
                        if (age > window && age <= expiredUpTo)
                        {
                            updated &= ~(modulus << shift);
                        }
                    }
                }
                if (updated == word || table.compareAndSetLong(wordIndex, word, updated))
                {
                    break;
                }
            }
            cell += to - from;
        }
    }
}
