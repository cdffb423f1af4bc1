package io.ddf.engine.window;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.persistence.MappedMemoryTestBase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SHF and CSHF (seed 001 §3.2): no false negative within the window, false positives as Theorem 3 says. */
class ShortHashFilterTest extends MappedMemoryTestBase
{
    private static final int WINDOW = 1024;
    /** log2(1024) / 2 = 5, so SHF's M = 2w(f + 5) gives exactly f-bit fingerprints; CSHF's M = w·f. */
    private static final int FINGERPRINT_BITS = 14;

    private static long memoryFor(final FilterKind kind, final int f)
    {
        return kind == FilterKind.SHF ? 2L * WINDOW * (f + 5) : (long)WINDOW * f;
    }

    /** Theorem 3: FP_SHF = 1 − (1 − √(w·2^(−M/w)))^w, FP_CSHF = 1 − (1 − 2^(−M/w))^w. */
    private static double theorem3(final FilterKind kind, final long m, final long w)
    {
        final double p = kind == FilterKind.SHF ? Math.sqrt(w * Math.pow(2, -(double)m / w)) : Math.pow(2, -(double)m / w);
        return 1 - Math.pow(1 - p, w);
    }

    private static FilterBuilder builder(final FilterKind kind, final long m)
    {
        return Filters.builder(kind).window(WINDOW).memoryBits(m);
    }

    @ParameterizedTest
    @EnumSource(value = FilterKind.class, names = {"SHF", "CSHF"})
    void noFalseNegativeWithinTheWindow(final FilterKind kind)
    {
        // Alphabet 3w: about a quarter of the elements recur within the window.
        final Random random = seededRandom();
        for (final int f : new int[] {1, 3, 14, 64})
        {
            final WindowedTruth truth = new WindowedTruth(WINDOW);
            try (DuplicateFilter filter = builder(kind, memoryFor(kind, f)).create())
            {
                assertEquals(Long.toString(f), filter.parameters().toMap().get("fingerprint-bits"));
                for (int i = 0; i < 100_000; i++)
                {
                    final long e = random.nextInt(3 * WINDOW);
                    truth.record(e, filter.stream(e) == Verdict.DUPLICATE, true);
                }
            }
            System.out.println(kind.cliName() + " w=" + WINDOW + " f=" + f + ", alphabet 3w: " + truth);
            assertTrue(truth.duplicates() > 10_000, truth.toString());
            assertEquals(0, truth.falseNegatives(), "FNR^w must be exactly 0: " + truth);
        }
    }

    @ParameterizedTest
    @EnumSource(value = FilterKind.class, names = {"SHF", "CSHF"})
    void falsePositiveRateMatchesTheorem3(final FilterKind kind)
    {
        // Elements from 2^40 values: the window holds w distinct elements, as Theorem 3 assumes. Counted once the
        // window is full (the theorem's stationary regime). 2^14 − 1 non-zero fingerprints instead of 2^14 change
        // the value by 0.01%; the stated tolerance is 10% of the theorem's value (about 20 standard deviations of
        // the estimate over ~2·10^5 unseen elements).
        final Random random = seededRandom();
        final long m = memoryFor(kind, FINGERPRINT_BITS);
        final double expected = theorem3(kind, m, WINDOW);
        final WindowedTruth truth = new WindowedTruth(WINDOW);
        try (DuplicateFilter filter = builder(kind, m).create())
        {
            for (int i = 0; i < 200_000; i++)
            {
                final long e = random.nextLong() & ((1L << 40) - 1);
                truth.record(e, filter.stream(e) == Verdict.DUPLICATE, i >= WINDOW);
            }
        }
        System.out.printf("%s w=%d M=%d (f=%d): measured %s, Theorem 3 FP=%.5f%n", kind.cliName(), WINDOW, m,
            FINGERPRINT_BITS, truth, expected);
        assertEquals(0, truth.falseNegatives());
        assertEquals(expected, truth.fpr(), 0.1 * expected, truth.toString());
    }

    @ParameterizedTest
    @EnumSource(value = FilterKind.class, names = {"SHF", "CSHF"})
    void parametersFollowThePaper(final FilterKind kind)
    {
        // SHF: floor(M / 2w − log2(w) / 2); CSHF: floor(M / w).
        final Map<String, String> map = builder(kind, kind == FilterKind.SHF ? 2L * WINDOW * 20 + 100 : 20L * WINDOW + 100)
            .parameters().toMap();
        assertEquals(kind == FilterKind.SHF ? "15" : "20", map.get("fingerprint-bits"));
        // fingerprint-bits instead of memory-bits: memory is the paper's for that width.
        final Map<String, String> byWidth = Filters.builder(kind).window(WINDOW).fingerprintBits(10).parameters().toMap();
        assertEquals(Long.toString(memoryFor(kind, 10)), byWidth.get("memory-bits"));
        // Defaults work: 2^26 bits over 2^16 elements, fingerprints capped at 64 bits.
        final Map<String, String> defaults = Filters.builder(kind).parameters().toMap();
        assertEquals("64", defaults.get("fingerprint-bits"));
        assertTrue(defaults.get("fingerprint-note").contains("capped"), defaults.toString());
        // memory-bits alone, too small for the default window: the largest window keeping 2·log2(w)-bit
        // fingerprints.
        final Map<String, String> small = Filters.builder(kind).memoryBits(4096).parameters().toMap();
        final long w = Long.parseLong(small.get("window"));
        final long f = Long.parseLong(small.get("fingerprint-bits"));
        assertTrue(w > 1 && f >= 2 * Math.log(w) / Math.log(2), small.toString());
        ExactWindowTest.assertThrowsWithMessage("too small",
            () -> builder(kind, kind == FilterKind.SHF ? 2L * WINDOW * 5 : WINDOW - 1).parameters());
        ExactWindowTest.assertThrowsWithMessage("either memory-bits or fingerprint-bits",
            () -> builder(kind, 100_000).fingerprintBits(8).parameters());
        ExactWindowTest.assertThrowsWithMessage("fingerprint-bits must be in 1..64",
            () -> Filters.builder(kind).fingerprintBits(65).parameters());
    }
}
