package io.ddf.bench.reference;

import io.ddf.engine.hash.Mix;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two rotating Bloom filters: no false negatives within the window, the rate of their sizing at the steady rate. */
class RotatingBloomsTest
{
    @Test
    void byTimeRemembersEveryElementForTheWindowWhateverTheRate()
    {
        final long window = 60_000;
        final RotatingBlooms blooms = RotatingBlooms.byTime(1 << 16, 5, window);
        final SplittableRandom random = new SplittableRandom(29);
        final ArrayDeque<long[]> live = new ArrayDeque<>();
        long now = 5_000;
        for (int i = 0; i < 100_000; i++)
        {
            final int mode = random.nextInt(100);
            now += mode < 90 ? random.nextInt(5) : mode < 99 ? random.nextInt(30_000) : 200_000;
            blooms.advance(now);
            final long h = random.nextLong();
            if (!blooms.stream(h))
            {
                live.addLast(new long[] {h, now});
            }
            while (!live.isEmpty() && live.peekFirst()[1] + window <= now)
            {
                live.pollFirst();
            }
            if (i % 1_000 == 0)
            {
                for (final long[] e : live)
                {
                    assertTrue(blooms.contains(e[0]), "added at " + e[1] + ", forgotten at " + now);
                }
            }
        }
    }

    @Test
    void byCountRemembersTheLastN()
    {
        final long n = 3_000;
        final RotatingBlooms blooms = RotatingBlooms.byCount(40_000, 7, n);
        final long[] recent = new long[(int)n + 1];
        final SplittableRandom random = new SplittableRandom(7);
        int inserted = 0;
        for (int i = 0; i < 50_000; i++)
        {
            final long h = random.nextLong();
            if (blooms.stream(h))
            {
                continue;
            }
            recent[inserted % recent.length] = h;
            if (inserted >= n)
            {
                assertTrue(blooms.contains(recent[(int)((inserted - n) % recent.length)]));
            }
            inserted++;
        }
    }

    @Test
    void clientSizingHoldsItsTargetAtTheSteadyRate()
    {
        for (final double target : new double[] {0.1, 0.01, 0.001})
        {
            final long n = 20_000;
            final long[] design = RotatingBlooms.design(n, target);
            final long perItem = 10;
            final RotatingBlooms blooms = RotatingBlooms.byTime(design[0], (int)design[1], n * perItem);
            long fresh = 0;
            long positives = 0;
            long h = 0x5EED;
            for (long i = 0; i < 40 * n; i++)
            {
                blooms.advance(1 + i * perItem);
                h = Mix.mix64(h + Mix.GOLDEN_GAMMA);
                final boolean present = blooms.stream(h);
                if (i >= 10 * n)
                {
                    fresh++;
                    positives += present ? 1 : 0;
                }
            }
            final double measured = positives / (double)fresh;
            final double model = RotatingBlooms.steadyFpr(n, design[0], (int)design[1]);
            assertTrue(measured <= target, target + ": " + measured);
            // the model inserts every element; the filters insert only those they judge new (fewer at a higher rate)
            assertTrue(measured <= model * 1.05 && measured >= model * 0.8,
                target + ": measured " + measured + ", model " + model);
        }
    }
}
