package io.ddf.bench.reference;

import io.ddf.engine.hash.Mix;

import java.util.Arrays;

/**
 * Two rotating Bloom filters, what clients build by hand for a window (two RedisBloom keys and a Lua script, rueidis'
 * sliding-window filter): a current and a previous standard Bloom filter of m bits and K hash functions each
 * (enhanced double hashing); a new element goes into the current one, a query asks both; a rotation drops the previous,
 * makes the current previous and starts an empty current one. Not thread-safe, on the heap.
 *
 * <ul>
 *   <li>by time ({@link #byTime}): a rotation every window W, aligned on the first time seen. An element added at t,
 *       in the period [P, P + W), is dropped at P + 2W &gt; t + W: present until at least t + W whatever the rate, and
 *       with at most n new elements in any window each filter holds at most n (a period is a window), so the rate
 *       stays at the sizing's for n.</li>
 *   <li>by count ({@link #byCount}): a rotation before the element that would be the n + 1st of the current filter;
 *       an element stays present while at most n new elements come after it.</li>
 * </ul>
 */
public final class RotatingBlooms
{
    private final long filterBits;
    private final int hashFunctions;
    private final int filterWords;
    private final long[][] filters = new long[2][];
    private final long capacity;
    private final long windowMillis;
    private int current;
    private long inCurrent;
    private long periodStart = Long.MIN_VALUE;
    private long time = Long.MIN_VALUE;
    private long rotations;

    private RotatingBlooms(final long filterBits, final int hashFunctions, final long capacity, final long windowMillis)
    {
        if (filterBits < 1 || hashFunctions < 1)
        {
            throw new IllegalArgumentException("rotating Blooms need filters of at least a bit and K >= 1, got m = " +
                filterBits + ", K = " + hashFunctions);
        }
        final long w = (filterBits + 63) >>> 6;
        if (w > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException("a filter of " + w + " words is too large for this reference");
        }
        this.filterBits = filterBits;
        this.hashFunctions = hashFunctions;
        this.filterWords = (int)w;
        this.filters[0] = new long[filterWords];
        this.filters[1] = new long[filterWords];
        this.capacity = capacity;
        this.windowMillis = windowMillis;
    }

    /**
     * @param filterBits    m, bits of each of the two filters.
     * @param hashFunctions K.
     * @param capacity      n, new elements per filter before a rotation.
     * @return filters rotated every n new elements.
     */
    public static RotatingBlooms byCount(final long filterBits, final int hashFunctions, final long capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        return new RotatingBlooms(filterBits, hashFunctions, capacity, 0);
    }

    /**
     * @param filterBits    m, bits of each of the two filters.
     * @param hashFunctions K.
     * @param windowMillis  W.
     * @return filters rotated every W.
     */
    public static RotatingBlooms byTime(final long filterBits, final int hashFunctions, final long windowMillis)
    {
        if (windowMillis < 1)
        {
            throw new IllegalArgumentException("window must be at least 1 ms, got " + windowMillis);
        }
        return new RotatingBlooms(filterBits, hashFunctions, 0, windowMillis);
    }

    /**
     * The K that gives the least rate at the steady rate in a given memory: the previous filter full (n elements), the
     * current one at a fill x uniform in [0, 1), the rate 1 - (1 - f(1))(1 - f(x)) with f(x) = (1 - e^(-K x n / m))^K.
     *
     * @param n          new elements per window.
     * @param filterBits m, each filter's bits.
     * @return K.
     */
    public static int bestHashFunctions(final long n, final long filterBits)
    {
        int best = 1;
        double bestRate = Double.POSITIVE_INFINITY;
        for (int k = 1; k <= 32; k++)
        {
            final double rate = steadyFpr(n, filterBits, k);
            if (rate < bestRate)
            {
                bestRate = rate;
                best = k;
            }
        }
        return best;
    }

    /**
     * @param n          new elements per window.
     * @param filterBits m, each filter's bits.
     * @param k          K.
     * @return the rate at the steady rate, averaged over the current filter's fill.
     */
    public static double steadyFpr(final long n, final long filterBits, final int k)
    {
        final double full = bloom(1, n, filterBits, k);
        final int points = 64;
        double sum = 0;
        for (int i = 0; i < points; i++)
        {
            final double x = (i + 0.5) / points;
            sum += 1 - (1 - full) * (1 - bloom(x, n, filterBits, k));
        }
        return sum / points;
    }

    private static double bloom(final double fill, final long n, final long m, final int k)
    {
        return Math.pow(1 - Math.exp(-k * fill * n / (double)m), k);
    }

    /**
     * The client's sizing: each filter a standard Bloom filter of capacity n at ε / 2 (so that two full ones answer at
     * most ε): m = ⌈-n ln(ε/2) / ln² 2⌉, K = round(m / n · ln 2).
     *
     * @param n      new elements per window.
     * @param target ε.
     * @return {m, K}.
     */
    public static long[] design(final long n, final double target)
    {
        final long m = (long)Math.ceil(-n * Math.log(target / 2) / (Math.log(2) * Math.log(2)));
        return new long[] {m, Math.max(1, Math.round(m / (double)n * Math.log(2)))};
    }

    /**
     * Moves the time to {@code now} (never back) and rotates as due; count-based filters ignore it.
     *
     * @param now epoch ms.
     */
    public void advance(final long now)
    {
        if (windowMillis == 0 || now <= time)
        {
            return;
        }
        time = now;
        if (periodStart == Long.MIN_VALUE)
        {
            periodStart = now;
            return;
        }
        final long due = (now - periodStart) / windowMillis;
        if (due <= 0)
        {
            return;
        }
        if (due >= 2)
        {
            Arrays.fill(filters[0], 0L);
            Arrays.fill(filters[1], 0L);
            rotations += due;
        }
        else
        {
            rotate();
        }
        periodStart += due * windowMillis;
    }

    private void rotate()
    {
        current ^= 1;
        Arrays.fill(filters[current], 0L);
        inCurrent = 0;
        rotations++;
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
        if (capacity > 0 && inCurrent == capacity)
        {
            rotate();
        }
        final long[] into = filters[current];
        long h = hash;
        final long step = Mix.mix64(hash + Mix.GOLDEN_GAMMA) | 1;
        for (int i = 0; i < hashFunctions; i++)
        {
            final long bit = Mix.reduce(h, filterBits);
            into[(int)(bit >>> 6)] |= 1L << bit;
            h += step + (long)i * (i + 1) / 2; // enhanced double hashing: h + i·step + (i³ - i)/6
        }
        inCurrent++;
        return false;
    }

    /**
     * @param hash an element's 64-bit hash.
     * @return whether either filter holds it.
     */
    public boolean contains(final long hash)
    {
        return holds(filters[current], hash) || holds(filters[current ^ 1], hash);
    }

    private boolean holds(final long[] filter, final long hash)
    {
        long h = hash;
        final long step = Mix.mix64(hash + Mix.GOLDEN_GAMMA) | 1;
        for (int i = 0; i < hashFunctions; i++)
        {
            final long bit = Mix.reduce(h, filterBits);
            if ((filter[(int)(bit >>> 6)] & (1L << bit)) == 0)
            {
                return false;
            }
            h += step + (long)i * (i + 1) / 2;
        }
        return true;
    }

    /** @return m, each filter's bits. */
    public long filterBits()
    {
        return filterBits;
    }

    /** @return K. */
    public int hashFunctions()
    {
        return hashFunctions;
    }

    /** @return both filters' bits, 2m. */
    public long memoryBits()
    {
        return 2 * filterBits;
    }

    /** @return rotations so far. */
    public long rotations()
    {
        return rotations;
    }
}
