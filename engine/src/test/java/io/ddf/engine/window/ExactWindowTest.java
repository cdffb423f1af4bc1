package io.ddf.engine.window;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.MappedMemoryTestBase;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The exact windowed filter (seed 001 Th. 1) against a brute-force window. */
class ExactWindowTest extends MappedMemoryTestBase
{
    @Test
    void noErrorAgainstABruteForceWindow()
    {
        // w = 1000 over an alphabet of 20,000: about 5% of elements are duplicates within the window, and elements
        // leave and re-enter it all the time. Collisions of the 64-bit hashes of 20,000 values: ~2^-35, negligible.
        final Random random = seededRandom();
        final int window = 1000;
        final WindowedTruth truth = new WindowedTruth(window);
        try (DuplicateFilter filter = Filters.builder(FilterKind.EXACT_WINDOW).window(window).create())
        {
            for (int i = 0; i < 1_000_000; i++)
            {
                final long e = random.nextInt(20_000);
                final boolean duplicate = filter.stream(e) == Verdict.DUPLICATE;
                final boolean expected = truth.record(e, duplicate, true);
                if (duplicate != expected)
                {
                    throw new AssertionError("element " + i + " (" + e + "): filter says " + duplicate);
                }
            }
        }
        System.out.println("exact-window w=1000, alphabet 20000, 10^6 elements: " + truth);
        assertEquals(0, truth.falsePositives() + truth.falseNegatives());
        assertTrue(truth.duplicates() > 10_000, "the stream must exercise duplicates: " + truth);
    }

    @Test
    void windowOfOneComparesWithThePreviousElementOnly()
    {
        try (DuplicateFilter filter = Filters.builder(FilterKind.EXACT_WINDOW).window(1).create())
        {
            assertEquals(Verdict.UNSEEN, filter.stream(1L));
            assertEquals(Verdict.DUPLICATE, filter.stream(1L));
            assertEquals(Verdict.UNSEEN, filter.stream(2L));
            assertEquals(Verdict.UNSEEN, filter.stream(1L));
        }
    }

    @Test
    void parametersAreTheWindowAlone()
    {
        assertEquals("65536", Filters.builder(FilterKind.EXACT_WINDOW).parameters().toMap().get("window"));
        final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.EXACT_WINDOW).memoryBits(1000).parameters());
        assertTrue(e.getMessage().contains(".memoryBits(n) is not a parameter of exact-window"), e.getMessage());
        assertThrowsWithMessage("window", () -> Filters.builder(FilterKind.EXACT_WINDOW).window(0).parameters());
    }

    static void assertThrowsWithMessage(final String fragment, final org.junit.jupiter.api.function.Executable call)
    {
        final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(fragment), "message '" + e.getMessage() + "' should mention " + fragment);
    }
}
