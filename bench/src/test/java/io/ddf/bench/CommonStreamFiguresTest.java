package io.ddf.bench;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.persistence.MappedMemoryTestBase;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CommonStreamFigures}' measurement on its common stream (2^20 elements drawn uniformly from 2^18, 2^20 bits
 * of memory), holding each kind to what its construction guarantees whatever the parameters, so that the figures
 * the bench prints come from a measurement that can be wrong only where the filters may be: the Bloom filter never
 * forgets (no false negative), b_DBF none within its window, SHF and CSHF none within theirs (they keep the last w
 * fingerprints); and every rate is a rate.
 */
class CommonStreamFiguresTest extends MappedMemoryTestBase
{
    private static final int STREAM = 1 << 20;
    private static final int ALPHABET = 1 << 18;
    private static final long MEMORY_BITS = 1 << 20;
    /** The default window of A2 and b_DBF. */
    private static final long WINDOW = 1 << 16;
    /** A window SHF and CSHF can hold in {@link #MEMORY_BITS}. */
    private static final long SHORT_WINDOW = 1 << 13;

    @Test
    void eachKindKeepsWhatItsConstructionGuarantees()
    {
        final int[] stream = new SplittableRandom(TestSeed.seed()).ints(STREAM, 0, ALPHABET).toArray();
        for (final FilterKind kind : new FilterKind[] {FilterKind.BLOOM, FilterKind.SBF, FilterKind.RSBF,
            FilterKind.BSBF, FilterKind.BSBFSD, FilterKind.RLBSBF, FilterKind.A2, FilterKind.BDBF})
        {
            final CommonStreamFigures.Rates rates = CommonStreamFigures.measure(
                Filters.builder(kind).memoryBits(MEMORY_BITS), stream, ALPHABET, WINDOW);
            assertRates(rates);
            if (kind == FilterKind.BLOOM)
            {
                assertEquals(0.0, rates.falseNegative(), "a Bloom filter has no false negative: " + rates);
            }
            if (kind == FilterKind.BDBF)
            {
                assertEquals(0.0, rates.falseNegativeW(), "b_DBF has no false negative within its window: " + rates);
            }
        }
        for (final FilterKind kind : new FilterKind[] {FilterKind.SHF, FilterKind.CSHF})
        {
            final CommonStreamFigures.Rates rates = CommonStreamFigures.measure(
                Filters.builder(kind).memoryBits(MEMORY_BITS).window(SHORT_WINDOW), stream, ALPHABET, SHORT_WINDOW);
            assertRates(rates);
            assertEquals(0.0, rates.falseNegativeW(), kind + " has no false negative within its window: " + rates);
        }
    }

    private static void assertRates(final CommonStreamFigures.Rates rates)
    {
        for (final double rate : new double[] {rates.falsePositive(), rates.falseNegative(), rates.falsePositiveW(),
            rates.falseNegativeW()})
        {
            assertTrue(rate >= 0 && rate <= 100, "a rate in percent: " + rates);
        }
    }
}
