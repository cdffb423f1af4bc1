package io.ddf.engine.bloom;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.persistence.MappedMemoryTestBase;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A2 and b_DBF remember what their window says and forget the rest. */
class WindowedBloomTest extends MappedMemoryTestBase
{
    private static final int WINDOW = 1000;

    @Test
    void a2HoldsTheLastHalfWindowAndForgetsAfterTwoSwaps()
    {
        final Random random = seededRandom();
        final CoreHarness h = CoreHarness.of(Filters.builder(FilterKind.A2).memoryBits(1 << 20).window(WINDOW));
        final A2Core core = (A2Core)h.core;
        final long[] elements = random.longs(20 * WINDOW).toArray();
        for (int i = 0; i < elements.length; i++)
        {
            assertFalse(core.stream(elements[i]), "a fresh element, in buffers holding at most " + WINDOW);
            assertTrue(core.contains(elements[Math.max(0, i - WINDOW / 2)]), "held for w/2 further insertions");
        }
        // The first element of a buffer stays for w − 1 further insertions and goes with the second swap after it.
        final CoreHarness fresh = CoreHarness.of(Filters.builder(FilterKind.A2).memoryBits(1 << 20).window(WINDOW));
        final long x = random.nextLong();
        final long y = random.nextLong();
        fresh.core.stream(x);
        fresh.core.stream(y);
        for (int i = 2; i < WINDOW / 2; i++)
        {
            fresh.core.stream(random.nextLong());
        }
        fresh.core.stream(random.nextLong()); // swap: x and y now in the warm buffer
        assertEquals(1, ((A2Core)fresh.core).activeCount());
        assertTrue(fresh.core.stream(x), "found in the warm buffer: DUPLICATE, and copied to the active one");
        for (int i = 0; i < WINDOW / 2 - 2; i++) // the active buffer holds the swapping element and x
        {
            fresh.core.stream(random.nextLong());
        }
        assertEquals(WINDOW / 2, ((A2Core)fresh.core).activeCount());
        assertTrue(fresh.core.contains(y), "y is still in the warm buffer");
        fresh.core.stream(random.nextLong()); // swap: the old warm buffer, holding y, is cleared
        assertTrue(fresh.core.contains(x), "x was copied into the buffer that is now warm");
        assertFalse(fresh.core.contains(y), "y left with the cleared buffer");
    }

    @Test
    void bdbfAnswersExactlyTheWindowOnDistinctElements()
    {
        final Random random = seededRandom();
        final CoreHarness h = CoreHarness.of(Filters.builder(FilterKind.BDBF).memoryBits(1 << 18).window(WINDOW));
        final long[] elements = random.longs(30 * WINDOW).toArray();
        int falsePositives = 0;
        int checks = 0;
        for (int i = 0; i < elements.length; i++)
        {
            if (i >= WINDOW + 1)
            {
                assertTrue(h.core.contains(elements[i - WINDOW]), "the element w arrivals back is in the window");
                falsePositives += h.core.contains(elements[i - WINDOW - 1]) ? 1 : 0;
                checks++;
            }
            h.core.stream(elements[i]);
        }
        System.out.printf("bdbf w=%d: element w+1 back judged present %d times of %d%n", WINDOW, falsePositives,
            checks);
        assertTrue(falsePositives <= checks / 100, falsePositives + " of " + checks);
    }

    @Test
    void bdbfHasNoFalseNegativeInItsWindowAcrossClockWraps()
    {
        final Random random = seededRandom();
        final CoreHarness h = CoreHarness.of(Filters.builder(FilterKind.BDBF).memoryBits(1 << 18).window(WINDOW));
        final int alphabet = 5 * WINDOW;
        final long[] lastSeen = new long[alphabet];
        Arrays.fill(lastSeen, Long.MIN_VALUE / 2);
        final long[] hashes = random.longs(alphabet).toArray();
        long falsePositives = 0;
        long unseen = 0;
        // 40 windows: the 12-bit stamps (R = 4095) wrap about 10 times.
        for (long t = 0; t < 40 * WINDOW; t++)
        {
            final int e = random.nextInt(alphabet);
            final boolean inWindow = t - lastSeen[e] <= WINDOW;
            final boolean judged = h.core.stream(hashes[e]);
            if (inWindow)
            {
                assertTrue(judged, "false negative at t=" + t);
            }
            else
            {
                unseen++;
                falsePositives += judged ? 1 : 0;
            }
            lastSeen[e] = t;
        }
        System.out.printf("bdbf w=%d: FPR %.5f over %d elements unseen in the window%n", WINDOW,
            (double)falsePositives / unseen, unseen);
        assertTrue(falsePositives <= unseen / 100);
    }
}
