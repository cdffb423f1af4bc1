package io.ddf.engine.composite;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.spi.FilterClock;
import io.ddf.engine.spi.GivenParameters;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * aged-cuckoo's two layouts (FORMAT-AGED-CUCKOO.md, bucket-words): which one a filter gets, its sizing, and the
 * two-word layout's placement: at the promised rate and the planned load an element's entry is in one word or the
 * other of one of its two buckets, relocations included, and found there. (That a file of the one-word layout opens
 * and answers as before: {@code EngineGoldenFileTest}, aged-cuckoo-2.0.ddf, written by the build before.)
 */
class AgedCuckooLayoutTest
{
    private static final long WINDOW = 100_000;
    private static final long T0 = 1_700_000_000_000L;
    /** APBF's bits an item at 1 % (bench accuracy --preset window-memory): the memory target aged-cuckoo meets. */
    private static final double APBF_BITS_AT_ONE_PERCENT = 19.50;

    private static long[] resolve(final double error, final Long slices, final Long bucketWords)
    {
        final GivenParameters given = new GivenParameters();
        given.put("capacity", 1_000_000L);
        given.put("window-ms", WINDOW);
        given.put("time-source", 1L);
        given.put("target-fpr", error);
        if (slices != null)
        {
            given.put("slices", slices);
        }
        if (bucketWords != null)
        {
            given.put("bucket-words", bucketWords);
        }
        return new AgedCuckooDefinition().resolve(given);
    }

    @Test
    void twoWordsWhereTheFingerprintAndTheSlicesFitElseOne()
    {
        final long[] onePercent = resolve(0.01, null, null);
        assertEquals(AgedCuckooDefinition.TWO_WORDS, onePercent[AgedCuckooDefinition.BUCKET_WORDS]);
        assertEquals(11, onePercent[AgedCuckooDefinition.FINGERPRINT], "16 slots a lookup: one bit more than 8");
        assertEquals(14, onePercent[AgedCuckooDefinition.SLICES], "31 stamps: 2 L + 3 <= 31");
        final double bits = Double.parseDouble(new AgedCuckooDefinition().describe(onePercent).get("bits-per-item"));
        assertTrue(bits <= APBF_BITS_AT_ONE_PERCENT, bits + " bits an item at 1 %");
        final long[] sixteen = resolve(0.01, 16L, null);
        assertEquals(AgedCuckooDefinition.ONE_WORD, sixteen[AgedCuckooDefinition.BUCKET_WORDS], "L = 16 keeps one");
        assertEquals(10, sixteen[AgedCuckooDefinition.FINGERPRINT]);
        final long[] fine = resolve(0.001, null, null);
        assertEquals(AgedCuckooDefinition.ONE_WORD, fine[AgedCuckooDefinition.BUCKET_WORDS], "0.1 % needs f = 14");
        assertEquals(13, fine[AgedCuckooDefinition.FINGERPRINT]);
        assertThrows(IllegalArgumentException.class, () -> resolve(0.01, 16L, AgedCuckooDefinition.TWO_WORDS));
        assertThrows(IllegalArgumentException.class, () -> resolve(0.01, null, 1L));
        assertEquals(1, AgedCuckooDefinition.layout(resolve(0.01, 4L, 0L)).bucketWords());
    }

    /**
     * Three windows at the promised rate (load up to 0.95 at the end of each), then every element of the last window:
     * found, its entry in exactly the words the table's rules allow (either word of i1 or of i2), and both words of
     * the buckets and both buckets used.
     */
    @Test
    void anEntryIsInEitherWordOfOneOfItsBucketsAfterRelocations()
    {
        final long n = 20_000;
        final GivenParameters given = new GivenParameters();
        given.put("capacity", n);
        given.put("window-ms", WINDOW);
        given.put("time-source", 1L);
        given.put("target-fpr", 0.01);
        final AgedCuckooDefinition definition = new AgedCuckooDefinition();
        final long[] slots = definition.resolve(given);
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        try (DirectRegion region = new DirectRegion(definition.tableBytes(slots)))
        {
            final AgedCuckooCore core = (AgedCuckooCore)definition.core(slots, region.words(true), null,
                FilterClock.NONE);
            assertTrue(core.cells.wide(), "the default layout");
            final long[] last = new long[(int)n];
            int added = 0;
            for (long i = 0; i < 3 * n; i++)
            {
                final long element = random.nextLong();
                // an element answered DUPLICATE (a false positive, about 1 %) was not added: its match may be gone
                if (!core.stream(element, T0 + i * WINDOW / n) && i >= 2 * n)
                {
                    last[added++] = element;
                }
            }
            assertTrue(added > n * 9 / 10, added + " added in the last window");
            final long live = core.state.getLongVolatile(AgedLayout.LIVE);
            final long[] where = new long[4]; // i1 low word, i1 high word, i2 low, i2 high
            for (final long e : java.util.Arrays.copyOf(last, added))
            {
                assertTrue(core.contains(e), "an element of the last window; " + TestSeed.replayHint());
                final long fp = core.cells.fingerprint(e);
                final long i1 = core.cells.firstBucket(e);
                final long[] words = {core.cells.index(i1), core.cells.index(i1) + 1,
                    core.cells.index(core.cells.alternate(i1, fp)), core.cells.index(core.cells.alternate(i1, fp)) + 1};
                boolean found = false;
                for (int w = 0; w < words.length && !found; w++)
                {
                    if (core.cells.find(core.table.getLongVolatile(words[w]), fp, live))
                    {
                        where[w]++;
                        found = true;
                    }
                }
                assertTrue(found, "the entry is in a word of its buckets");
            }
            final String what = "entries in i1's low and high words, i2's low and high: " + where[0] + ", " +
                where[1] + ", " + where[2] + ", " + where[3] + "; kicks " +
                core.state.getLongVolatile(AgedLayout.KICKS) + "; " + TestSeed.replayHint();
            assertTrue(where[0] > 0 && where[1] > 0 && where[2] > 0 && where[3] > 0, what);
            assertTrue(core.state.getLongVolatile(AgedLayout.KICKS) > 0, "relocations made: " + what);
            assertEquals(0, core.failures(), what);
        }
    }
}
