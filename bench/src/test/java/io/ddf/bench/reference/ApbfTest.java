package io.ddf.bench.reference;

import io.ddf.engine.hash.Mix;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reference APBF: its promised window without false negatives, and its false positive rate at the design point. */
class ApbfTest
{
    /** The recursion as the paper writes it, memoised by nothing: the model's dynamic programme must agree. */
    private static double recursion(final int k, final int l, final int a, final int i)
    {
        if (a == k)
        {
            return 1;
        }
        if (i > l + a)
        {
            return 0;
        }
        final double r = i < k ? (i + 1) / (2.0 * k) : 0.5;
        return r * recursion(k, l, a + 1, i + 1) + (1 - r) * recursion(k, l, 0, i + 1);
    }

    @Test
    void modelIsThePapersRecursionAndItsTableHoldsItsTargets()
    {
        for (int k = 1; k <= 12; k++)
        {
            for (int l = 1; l <= 12; l++)
            {
                assertEquals(recursion(k, l, 0, 0), ApbfModel.fpr(k, l), 1e-12, "k = " + k + ", l = " + l);
            }
        }
        // the paper's table gives (k, l) whose rate is about 10^-j: within -9 % .. +22 %
        for (int j = 0; j < ApbfModel.PAPER_TABLE.length; j++)
        {
            final double target = Math.pow(10, -(j + 1));
            for (final int[] kl : ApbfModel.PAPER_TABLE[j])
            {
                final double ratio = ApbfModel.fpr(kl[0], kl[1]) / target;
                assertTrue(ratio > 0.9 && ratio < 1.22, kl[0] + "," + kl[1] + ": " + ratio);
            }
        }
        assertArrayEquals(new int[] {11, 46}, ApbfModel.paperDesign(0.01));
        assertArrayEquals(new int[] {7, 4}, ApbfModel.design(0.01)); // k = ⌈log2 100⌉, the largest l with F <= 1 %
        // fill 1/2 at k generations: the steady model (exact fills, averaged phase) within 10 % of the paper's
        for (final int[] kl : ApbfModel.PAPER_TABLE[1])
        {
            final double steady = ApbfModel.steadyFpr(kl[0], kl[1], Math.log(2) / kl[0]);
            assertEquals(1, steady / ApbfModel.fpr(kl[0], kl[1]), 0.1, kl[0] + "," + kl[1]);
        }
    }

    @Test
    void byCountRemembersEveryElementWhileAtMostLTimesGComeAfterIt()
    {
        for (final int[] kl : new int[][] {{3, 2}, {7, 5}, {11, 46}})
        {
            final long n = 5_000;
            final Apbf apbf = Apbf.design(n, kl[0], kl[1]);
            final long window = (long)kl[1] * apbf.generation();
            assertTrue(window >= n);
            final long[] recent = new long[(int)window + 1];
            final SplittableRandom random = new SplittableRandom(29);
            for (int i = 0; i < 20 * n; i++)
            {
                final long h = random.nextLong();
                apbf.insert(h);
                recent[i % recent.length] = h;
                // the oldest element with at most l·g after it: i - window
                if (i >= window)
                {
                    assertTrue(apbf.contains(recent[(int)((i - window) % recent.length)]), "forgot at " + i);
                }
                if (i % 9_973 == 0)
                {
                    for (long back = 0; back <= Math.min(i, window); back++)
                    {
                        assertTrue(apbf.contains(recent[(int)((i - back) % recent.length)]), "back " + back);
                    }
                }
            }
            assertEquals(20 * n / apbf.generation() - (20 * n % apbf.generation() == 0 ? 1 : 0), apbf.shifts());
        }
    }

    @Test
    void byTimeRemembersEveryElementForTheWindowWhateverTheRate()
    {
        final int k = 7;
        final int l = 5;
        final long window = 60_000;
        final long sliceMillis = (window + l - 1) / l;
        final Apbf apbf = Apbf.byTime(k, l, 4_096, sliceMillis);
        final SplittableRandom random = new SplittableRandom(2929);
        final ArrayDeque<long[]> live = new ArrayDeque<>();
        long now = 1_000_000;
        for (int i = 0; i < 200_000; i++)
        {
            // bursts, quiet spells and jumps past the whole filter
            final int mode = random.nextInt(100);
            now += mode < 90 ? random.nextInt(3) : mode < 99 ? random.nextInt(20_000) : 200_000;
            apbf.advance(now);
            final long h = random.nextLong();
            apbf.insert(h);
            live.addLast(new long[] {h, now});
            while (!live.isEmpty() && live.peekFirst()[1] + l * sliceMillis <= now)
            {
                live.pollFirst();
            }
            if (i % 1_000 == 0)
            {
                for (final long[] e : live)
                {
                    assertTrue(apbf.contains(e[0]), "added at " + e[1] + ", forgotten at " + now);
                }
            }
            else
            {
                assertTrue(apbf.contains(live.peekFirst()[0]));
            }
        }
    }

    /**
     * What the harness's FNR within the window counts for every design: a repeat whose earlier copy was judged a
     * duplicate (a false positive, or a copy of a copy) was never added, or was added longer ago than the window. Every
     * element the filter added answers present for the window after.
     */
    @Test
    void streamForgetsWithinTheWindowOnlyWhatItNeverAddedThen()
    {
        final long n = 2_000;
        final Apbf apbf = Apbf.design(n, 4, 3); // FPR about 10 %: many elements never added
        final int alphabet = 200_000;
        final long[] added = new long[alphabet];
        java.util.Arrays.fill(added, -1);
        final SplittableRandom random = new SplittableRandom(5);
        long inserted = 0;
        long repeatsOfAdded = 0;
        for (int i = 0; i < 1_000_000; i++)
        {
            final int e = random.nextInt(alphabet);
            final long h = Mix.mix64(e * 0x9E3779B97F4A7C15L + 1);
            final boolean present = apbf.stream(h);
            if (added[e] >= 0 && inserted - added[e] <= n - 1)
            {
                repeatsOfAdded++;
                assertTrue(present, "element added " + (inserted - added[e]) + " insertions ago forgotten");
            }
            if (!present)
            {
                added[e] = inserted++;
            }
        }
        assertTrue(repeatsOfAdded > 1_000, "repeats " + repeatsOfAdded);
    }

    @Test
    void falsePositiveRateAtTheDesignPointIsWithinTheFormula()
    {
        for (final int[] kl : new int[][] {{4, 3}, {7, 5}, {11, 46}, {10, 7}})
        {
            final long n = 20_000;
            final Apbf apbf = Apbf.design(n, kl[0], kl[1]);
            long fresh = 0;
            long positives = 0;
            long h = 0x5EED;
            for (long i = 0; i < 40 * n; i++)
            {
                h = Mix.mix64(h + Mix.GOLDEN_GAMMA);
                final boolean present = apbf.stream(h);
                if (i >= 10 * n)
                {
                    fresh++;
                    positives += present ? 1 : 0;
                }
            }
            final double measured = positives / (double)fresh;
            final double formula = ApbfModel.fpr(kl[0], kl[1]);
            // the formula takes the newest generation full; measured over its whole phase the rate is at most it
            assertTrue(measured <= formula * 1.03, kl[0] + "," + kl[1] + ": " + measured + " > " + formula);
            assertTrue(measured >= formula * 0.6, kl[0] + "," + kl[1] + ": " + measured + " << " + formula);
        }
    }
}
