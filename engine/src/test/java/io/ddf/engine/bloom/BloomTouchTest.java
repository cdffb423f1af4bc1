package io.ddf.engine.bloom;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The plain Bloom kind's touch (what a batch reads before streaming, so that its k misses per element overlap): it
 * reads the words the element's stream sets, and changes nothing, so that a batch touched first judges exactly as
 * the same elements streamed one by one.
 */
class BloomTouchTest
{
    private static final long SEED = Long.getLong("ddf.test.seed", 0x5EEDL);
    private static final int GROUP = 16;

    private static DuplicateFilter bloom(final Path file)
    {
        return Filters.builder(FilterKind.BLOOM).memoryBits(1L << 20).param("hash-functions", 7L).seed(42)
            .file(file).create();
    }

    @Test
    void touchingChangesNothingAndReadsTheElementsWords(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("touched.ddf");
        try (DuplicateFilter filter = bloom(file))
        {
            final SplittableRandom random = new SplittableRandom(SEED);
            final long element = random.nextLong();
            assertEquals(0, filter.touchHash(element), "an empty filter's words are zero (seed " + SEED + ")");
            final byte[] before = Files.readAllBytes(file);
            for (int i = 0; i < 10_000; i++)
            {
                filter.touchHash(random.nextLong());
            }
            assertArrayEquals(before, Files.readAllBytes(file), "touching wrote to the file (seed " + SEED + ")");
            filter.streamHash(element);
            assertNotEquals(0, filter.touchHash(element), "touch does not read the words the element set (seed " +
                SEED + ")");
        }
    }

    @Test
    void aBatchTouchedFirstJudgesAsOneByOne(@TempDir final Path dir)
    {
        try (DuplicateFilter touched = bloom(dir.resolve("touched.ddf"));
             DuplicateFilter plain = bloom(dir.resolve("plain.ddf")))
        {
            final SplittableRandom random = new SplittableRandom(SEED);
            final long[] group = new long[GROUP];
            int duplicates = 0;
            for (int g = 0; g < 4_000; g++)
            {
                for (int i = 0; i < GROUP; i++)
                {
                    group[i] = random.nextInt(40_000); // repeats: both verdicts occur
                    touched.touchHash(group[i]);
                }
                for (int i = 0; i < GROUP; i++)
                {
                    final Verdict expected = plain.streamHash(group[i]);
                    assertEquals(expected, touched.streamHash(group[i]), "element " + (g * GROUP + i) + " (seed " +
                        SEED + ")");
                    duplicates += expected == Verdict.DUPLICATE ? 1 : 0;
                }
            }
            assertNotEquals(0, duplicates, "the stream had no repeats (seed " + SEED + ")");
        }
    }
}
