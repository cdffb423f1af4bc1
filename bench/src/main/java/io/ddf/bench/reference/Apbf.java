package io.ddf.bench.reference;

import io.ddf.engine.hash.Mix;

/**
 * A reference age-partitioned Bloom filter (Shtul, Baquero and Almeida, 2020), for comparisons: k + l slices of m
 * bits in a ring, an element's bit in slice s at {@code reduce(h + s·h2 + (s³ - s)/6, m)} (enhanced double hashing
 * on the slice's place in the ring, so that a slice keeps its hash function as it ages), set in the k newest slices.
 * Present: k consecutive slices hold the element's bit ({@link #contains}). Not thread-safe, on the heap.
 *
 * <p>Two ways to shift, as the paper has them:
 * <ul>
 *   <li>by count ({@link #byCount}): a shift before the element that would be the g + 1st of its generation. An
 *       element stays present while at most l·g new elements come after it: with g = ⌈n / l⌉, the last n.</li>
 *   <li>by time ({@link #byTime}): a shift every T of time, aligned on the first time seen (several at once after a
 *       quiet spell, all slices cleared after k + l of them). An element added at t is in a generation that began at
 *       s ≤ t and leaves at the l + 1st shift after, s + (l + 1) T &gt; t + l T: present until at least t + l T,
 *       whatever the rate. Its false positive rate is the sizing's only while a generation brings at most the g new
 *       elements its slices were sized for: at n per window W = l T, g = n / l.</li>
 * </ul>
 * Only elements judged new are inserted ({@link #stream}), as ddf's filters do.
 */
public final class Apbf
{
    private final int k;
    private final int l;
    private final int slices;
    private final long sliceBits;
    private final int sliceWords;
    private final long[] words;
    private final long generation;
    private final long sliceMillis;
    private int base;
    private long inGeneration;
    private long generationStart = Long.MIN_VALUE;
    private long time = Long.MIN_VALUE;
    private long shifts;
    private long inserted;

    private Apbf(final int k, final int l, final long sliceBits, final long generation, final long sliceMillis)
    {
        if (k < 1 || l < 1 || sliceBits < 1)
        {
            throw new IllegalArgumentException("APBF needs k >= 1, l >= 1 and slices of at least a bit, got k = " + k +
                ", l = " + l + ", m = " + sliceBits);
        }
        final long total = ((sliceBits + 63) >>> 6) * (k + l);
        if (total > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException("APBF of " + total + " words is too large for this reference");
        }
        this.k = k;
        this.l = l;
        this.slices = k + l;
        this.sliceBits = sliceBits;
        this.sliceWords = (int)((sliceBits + 63) >>> 6);
        this.words = new long[(int)total];
        this.generation = generation;
        this.sliceMillis = sliceMillis;
    }

    /**
     * @param k          slices an element is in.
     * @param l          extra slices.
     * @param sliceBits  m.
     * @param generation g, new elements per generation.
     * @return an APBF shifting every g new elements.
     */
    public static Apbf byCount(final int k, final int l, final long sliceBits, final long generation)
    {
        if (generation < 1)
        {
            throw new IllegalArgumentException("generation must be at least 1, got " + generation);
        }
        return new Apbf(k, l, sliceBits, generation, 0);
    }

    /**
     * @param k           slices an element is in.
     * @param l           extra slices.
     * @param sliceBits   m.
     * @param sliceMillis T, the time between shifts (a window W = l T).
     * @return an APBF shifting every T.
     */
    public static Apbf byTime(final int k, final int l, final long sliceBits, final long sliceMillis)
    {
        if (sliceMillis < 1)
        {
            throw new IllegalArgumentException("slice time must be at least 1 ms, got " + sliceMillis);
        }
        return new Apbf(k, l, sliceBits, 0, sliceMillis);
    }

    /**
     * Count-based, sized as the paper: g = ⌈n / l⌉ and m = ⌈k g / ln 2⌉.
     *
     * @param n window, in new elements.
     * @param k slices an element is in.
     * @param l extra slices.
     * @return the filter.
     */
    public static Apbf design(final long n, final int k, final int l)
    {
        final long g = ApbfModel.generation(n, l);
        return byCount(k, l, ApbfModel.designSliceBits(k, g), g);
    }

    /**
     * Moves the filter's time to {@code now} (never back) and makes the shifts due; count-based filters ignore it.
     *
     * @param now epoch ms.
     */
    public void advance(final long now)
    {
        if (sliceMillis == 0 || now <= time)
        {
            return;
        }
        time = now;
        if (generationStart == Long.MIN_VALUE)
        {
            generationStart = now;
            return;
        }
        final long due = (now - generationStart) / sliceMillis;
        if (due <= 0)
        {
            return;
        }
        if (due >= slices)
        {
            java.util.Arrays.fill(words, 0L);
            shifts += due;
        }
        else
        {
            for (long i = 0; i < due; i++)
            {
                shift();
            }
        }
        generationStart += due * sliceMillis;
    }

    /** Drops the oldest slice and makes an empty one the newest. */
    private void shift()
    {
        base = base == 0 ? slices - 1 : base - 1;
        final int from = base * sliceWords;
        java.util.Arrays.fill(words, from, from + sliceWords, 0L);
        inGeneration = 0;
        shifts++;
    }

    /**
     * @param hash an element's 64-bit hash.
     * @return whether it was judged present (then nothing changes); if not, it is inserted.
     */
    public boolean stream(final long hash)
    {
        if (contains(hash))
        {
            return true;
        }
        insert(hash);
        return false;
    }

    /**
     * Inserts an element whether or not it is present (a count-based filter counts it in its generation).
     *
     * @param hash an element's 64-bit hash.
     */
    public void insert(final long hash)
    {
        if (generation > 0 && inGeneration == generation)
        {
            shift();
        }
        final long step = step(hash);
        for (int p = 0; p < k; p++)
        {
            final int s = physical(p);
            final long bit = bit(hash, step, s);
            words[s * sliceWords + (int)(bit >>> 6)] |= 1L << bit;
        }
        inGeneration++;
        inserted++;
    }

    /**
     * The paper's query: start at position l (the oldest run of k that can hold a full match), count set bits upward;
     * at a miss at c no run through c can match, so jump to c - k with the bits counted so far carried (they are the
     * top of the run ending below c).
     *
     * @param hash an element's 64-bit hash.
     * @return whether k consecutive slices hold its bit.
     */
    public boolean contains(final long hash)
    {
        final long step = step(hash);
        int cursor = l;
        int done = 0;
        int carry = 0;
        while (cursor >= 0)
        {
            final int s = physical(cursor);
            final long bit = bit(hash, step, s);
            if ((words[s * sliceWords + (int)(bit >>> 6)] & (1L << bit)) != 0)
            {
                done++;
                if (done + carry == k)
                {
                    return true;
                }
                cursor++;
            }
            else
            {
                cursor -= k;
                carry = done;
                done = 0;
            }
        }
        return false;
    }

    private int physical(final int position)
    {
        final int s = base + position;
        return s >= slices ? s - slices : s;
    }

    private static long step(final long hash)
    {
        return Mix.mix64(hash + Mix.GOLDEN_GAMMA) | 1;
    }

    private long bit(final long hash, final long step, final int slice)
    {
        final long s = slice;
        return Mix.reduce(hash + s * step + (s * s * s - s) / 6, sliceBits);
    }

    /** @return k. */
    public int k()
    {
        return k;
    }

    /** @return l. */
    public int l()
    {
        return l;
    }

    /** @return m, bits per slice. */
    public long sliceBits()
    {
        return sliceBits;
    }

    /** @return g for a count-based filter, 0 for a time-based one. */
    public long generation()
    {
        return generation;
    }

    /** @return T for a time-based filter, 0 for a count-based one. */
    public long sliceMillis()
    {
        return sliceMillis;
    }

    /** @return the bits of all slices, (k + l) m. */
    public long memoryBits()
    {
        return slices * sliceBits;
    }

    /** @return generation shifts so far. */
    public long shifts()
    {
        return shifts;
    }

    /** @return elements inserted so far. */
    public long inserted()
    {
        return inserted;
    }
}
