package io.ddf.bench.accuracy;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The exact ground truth on small hand-made streams, with every combination of its memory structures. */
class GroundTruthTest
{
    private static final long NEVER = GroundTruth.NEVER;
    private static final long FAR = GroundTruth.FAR;

    /** Keys and the distance each must report: 7 recurs at distance 3 = w, then 4 = w + 1 (w = 3). */
    private static final long[] KEYS = {7, 1, 2, 7, 3, 4, 5, 7, 1, 1};
    private static final long W = 3;

    @Test
    void distancesOnAHandMadeStreamWithEveryImplementation()
    {
        // With an array and a window map of horizon 8, every distance up to 8 is exact.
        final long[] exact = {NEVER, NEVER, NEVER, 3, NEVER, NEVER, NEVER, 4, 7, 1};
        for (final GroundTruth truth : List.of(
            new GroundTruth(new SeenSet.Bitmap(8), new LastSeen.Array(8)),
            new GroundTruth(new SeenSet.Hashed(), new LastSeen.Windowed(8)),
            new GroundTruth(new SeenSet.Bitmap(8), new LastSeen.Windowed(7))))
        {
            final long[] got = new long[KEYS.length];
            for (int i = 0; i < KEYS.length; i++)
            {
                got[i] = truth.observe(KEYS[i]);
            }
            assertArrayEquals(exact, got);
        }
    }

    @Test
    void windowedTruthAtDistanceWAndWPlusOne()
    {
        // A horizon of exactly w: the map must forget 7 at distance 4 yet still know it was seen.
        final GroundTruth truth = new GroundTruth(new SeenSet.Hashed(), new LastSeen.Windowed(W));
        final boolean[] inWindow = new boolean[KEYS.length];
        final boolean[] ever = new boolean[KEYS.length];
        for (int i = 0; i < KEYS.length; i++)
        {
            final long d = truth.observe(KEYS[i]);
            inWindow[i] = GroundTruth.inWindow(d, W);
            ever[i] = d != NEVER;
        }
        assertTrue(inWindow[3], "7 again at distance exactly w is a windowed duplicate");
        assertFalse(inWindow[7], "7 again at distance w + 1 is not");
        assertTrue(ever[7], "but it is an unbounded duplicate");
        assertFalse(inWindow[8], "1 at distance 7");
        assertTrue(ever[8]);
        assertTrue(inWindow[9], "1 right after 1");
        assertArrayEquals(new boolean[] {false, false, false, true, false, false, false, true, true, true}, ever);
    }

    @Test
    void withoutAWindowSeenElementsAreFar()
    {
        final GroundTruth truth = new GroundTruth(16, 10, 0);
        assertEquals(NEVER, truth.observe(3));
        assertEquals(FAR, truth.observe(3));
        assertFalse(GroundTruth.inWindow(FAR, Long.MAX_VALUE - 1));
    }

    @Test
    void bitmapCoversTheTopKeyOfA32BitAlphabet()
    {
        // 2^32 bits is 512 MiB: check the index arithmetic on a small bitmap with keys near its end instead.
        final SeenSet seen = new SeenSet.Bitmap(130);
        assertFalse(seen.addAndCheck(129));
        assertFalse(seen.addAndCheck(65));
        assertFalse(seen.addAndCheck(1));
        assertTrue(seen.addAndCheck(129));
        assertTrue(seen.addAndCheck(65));
        assertFalse(seen.addAndCheck(128));
    }
}
