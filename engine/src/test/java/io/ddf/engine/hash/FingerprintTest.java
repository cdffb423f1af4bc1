package io.ddf.engine.hash;

import io.ddf.engine.memory.PackedCells;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FingerprintTest
{
    private static final long SEED = Long.getLong("ddf.test.seed", 0x5EEDL);

    @Test
    void isTheFirstMixWhenNonZeroElseTheNextNonZeroOne()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final long mask = PackedCells.mask(1); // half of the first mixes are zero
        int rederived = 0;
        for (int i = 0; i < 10_000; i++)
        {
            final long hash = random.nextLong();
            final long first = Mix.mix64(hash + Mix.GOLDEN_GAMMA);
            final long value = Fingerprint.nonZero(hash, mask);
            assertNotEquals(0, value, "seed " + SEED);
            if ((first & mask) != 0)
            {
                assertEquals(first & mask, value, "seed " + SEED);
            }
            else
            {
                rederived++;
                assertEquals(Fingerprint.nonZero(first, mask), value, "a zero is re-derived; seed " + SEED);
            }
        }
        assertTrue(rederived > 4_000, "about half re-derived with a 1-bit mask, got " + rederived + "; seed " + SEED);
    }

    @Test
    void keepsAWholeWordWithAFullMask()
    {
        assertEquals(Mix.mix64(7 + Mix.GOLDEN_GAMMA), Fingerprint.nonZero(7, PackedCells.mask(64)));
    }
}
