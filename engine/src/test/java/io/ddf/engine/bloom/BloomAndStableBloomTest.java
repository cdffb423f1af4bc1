package io.ddf.engine.bloom;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.engine.hash.Mix;
import io.ddf.persistence.MappedMemoryTestBase;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The plain Bloom filter never forgets; the Stable Bloom Filter keeps its cells in [0, Max] and its stable point. */
class BloomAndStableBloomTest extends MappedMemoryTestBase
{
    @Test
    void bloomHasNoFalseNegativeAtAnyLoad()
    {
        final Random random = seededRandom();
        final long[] elements = random.longs(20_000).distinct().toArray();
        for (final long memoryBits : new long[] {1 << 10, 1 << 14, 1 << 20})
        {
            try (DuplicateFilter filter = Filters.builder(FilterKind.BLOOM).memoryBits(memoryBits).create())
            {
                for (final long e : elements)
                {
                    filter.stream(e);
                }
                for (final long e : elements)
                {
                    assertEquals(Verdict.DUPLICATE, filter.stream(e), "memory-bits " + memoryBits);
                }
            }
        }
    }

    @Test
    void sbfCellsStayWithinZeroAndMaxAndMatchAReferenceModel()
    {
        final Random random = seededRandom();
        // d = 3: 21 cells per word and one spare bit, which a borrow or carry out of a cell would touch.
        final CoreHarness h = CoreHarness.of(Filters.builder(FilterKind.SBF).memoryBits(1 << 12).param("cell-bits", 3)
            .param("hash-functions", 3).param("target-fpr", 0.05));
        final StableBloomCore core = (StableBloomCore)h.core;
        final int m = (int)core.cells();
        final int k = 3;
        final long p = h.slots[StableBloomDefinition.DECREMENTS];
        final int max = 7;
        final int[] model = new int[m];
        final long[] alphabet = random.longs(3 * m).toArray();
        for (int step = 0; step < 200_000; step++)
        {
            final long hash = alphabet[random.nextInt(alphabet.length)];
            boolean expected = true;
            final long s = Hashes.step(hash);
            for (int i = 0; i < k; i++)
            {
                expected &= model[(int)Hashes.position(hash, s, i, m)] != 0;
            }
            final long start = Mix.reduce(Mix.mix64(hash ^ Hashes.RESET_SALT), m);
            for (long j = 0; j < p; j++)
            {
                final int cell = (int)((start + j) % m);
                model[cell] = Math.max(0, model[cell] - 1);
            }
            for (int i = 0; i < k; i++)
            {
                model[(int)Hashes.position(hash, s, i, m)] = max;
            }
            assertEquals(expected, core.stream(hash), "verdict at step " + step);
            assertTrue(core.contains(hash), "an element just streamed is held");
            if (step % 7 == 0)
            {
                assertTrue(core.stream(hash), "a repeat right after its insertion is a DUPLICATE");
                for (long j = 0, st = Mix.reduce(Mix.mix64(hash ^ Hashes.RESET_SALT), m); j < p; j++)
                {
                    final int cell = (int)((st + j) % m);
                    model[cell] = Math.max(0, model[cell] - 1);
                }
                for (int i = 0; i < k; i++)
                {
                    model[(int)Hashes.position(hash, s, i, m)] = max;
                }
            }
        }
        for (int c = 0; c < m; c++)
        {
            final long value = core.cell(c);
            assertTrue(value >= 0 && value <= max, "cell " + c + " = " + value);
            assertEquals(model[c], value, "cell " + c);
        }
        for (long w = 0; w < h.region.words(); w++)
        {
            assertEquals(0, h.region.getLongVolatile(w) >>> 63, "spare bit of word " + w);
        }
    }

    @Test
    void sbfZeroFractionSettlesAtTheStablePoint()
    {
        final Random random = seededRandom();
        final CoreHarness h = CoreHarness.of(Filters.builder(FilterKind.SBF).memoryBits(1 << 16));
        final StableBloomCore core = (StableBloomCore)h.core;
        final long m = core.cells();
        final long p = h.slots[StableBloomDefinition.DECREMENTS];
        for (int i = 0; i < 300_000; i++)
        {
            core.stream(random.nextLong());
        }
        long zeros = 0;
        for (long c = 0; c < m; c++)
        {
            zeros += core.cell(c) == 0 ? 1 : 0;
        }
        // Deng and Rafiei: the fraction of zeros tends to (1 / (1 + 1 / (P (1/K − 1/m))))^Max.
        final double expected = Math.pow(1 / (1 + 1 / (p * (0.5 - 1.0 / m))), 3);
        final double measured = (double)zeros / m;
        System.out.printf("SBF d=2 K=2 P=%d m=%d: zero fraction %.4f, stable point %.4f, FPR bound %.4f%n", p, m,
            measured, expected, Math.pow(1 - expected, 2));
        assertEquals(expected, measured, 0.01);
    }
}
