package io.ddf.engine;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The contract every filter kind keeps. */
class FilterContractTest extends EngineTestBase
{
    @TempDir
    Path dir;

    static List<FilterConfigs.Config> configs()
    {
        return FilterConfigs.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void freshFilterSaysUnseenThenDuplicate(final FilterConfigs.Config config)
    {
        try (DuplicateFilter filter = config.build(1024, null).create())
        {
            assertEquals(Verdict.UNSEEN, filter.stream(42L));
            assertEquals(Verdict.DUPLICATE, filter.stream(42L));
            assertEquals(Verdict.UNSEEN, filter.stream("hello"));
            assertEquals(Verdict.DUPLICATE, filter.stream("hello"));
            assertEquals(4, filter.elements());
            assertEquals(2, filter.duplicates());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void noFalseNegativeBeforeAnyEviction(final FilterConfigs.Config config)
    {
        final long seed = TestSeed.seed();
        // 2^10 elements for a capacity of 2^16 (quotient filters: a row holding more than 2 of them has
        // probability ~2^-21 per run).
        final long[] elements = new SplittableRandom(seed).longs(1 << 10).distinct().toArray();
        int falseNegatives = 0;
        try (DuplicateFilter filter = config.build(1 << 16, null).create())
        {
            for (final long e : elements)
            {
                filter.stream(e);
            }
            for (final long e : elements)
            {
                final boolean contained = filter.contains(e);
                final Verdict verdict = filter.stream(e);
                assertEquals(contained, verdict == Verdict.DUPLICATE, "contains and stream disagree, seed=" + seed);
                falseNegatives += contained ? 0 : 1;
            }
        }
        assertTrue(falseNegatives <= config.falseNegativeTolerance() * elements.length,
            falseNegatives + " false negatives out of " + elements.length + ", seed=" + seed);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void containsChangesNothing(final FilterConfigs.Config config) throws Exception
    {
        final Path file = dir.resolve("f.ddf");
        // policy no: under everysec the ddf-sync thread may store the header's last sync time between the two reads
        // (a flaky failure at byte 264), which is no change of contains'
        try (DuplicateFilter filter = config.build(64, file).sync(SyncPolicy.NO).create())
        {
            for (long e = 0; e < 200; e++)
            {
                filter.stream(e);
            }
            filter.flush();
            final byte[] before = Files.readAllBytes(file);
            final long elements = filter.elements();
            for (long e = 0; e < 400; e++)
            {
                filter.contains(e);
                filter.contains("text" + e);
            }
            filter.flush();
            assertArrayEquals(before, Files.readAllBytes(file));
            assertEquals(elements, filter.elements());
            assertFalse(filter.contains("never streamed"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void restartGivesTheSameVerdictsAsAnUninterruptedRun(final FilterConfigs.Config config) throws Exception
    {
        final long seed = TestSeed.seed();
        // A small filter and a stream with repeats, so evictions happen and the comparison means something.
        final long[] stream = new SplittableRandom(seed).longs(20_000, 0, 5_000).toArray();
        // Two copies of one fresh file, so both runs share the seed or secret key drawn at creation.
        final Path original = dir.resolve("uninterrupted.ddf");
        final Path copy = dir.resolve("restarted.ddf");
        config.build(256, original).create().close();
        Files.copy(original, copy);
        final Verdict[] uninterrupted = new Verdict[stream.length];
        try (DuplicateFilter filter = Filters.open(original))
        {
            for (int i = 0; i < stream.length; i++)
            {
                uninterrupted[i] = filter.stream(stream[i]);
            }
        }
        final Verdict[] resumed = new Verdict[stream.length];
        final int half = stream.length / 2;
        try (DuplicateFilter filter = Filters.open(copy))
        {
            for (int i = 0; i < half; i++)
            {
                resumed[i] = filter.stream(stream[i]);
            }
        }
        try (DuplicateFilter filter = Filters.open(copy))
        {
            assertEquals(config.build(256, null).parameters().toMap(), filter.parameters().toMap());
            assertEquals(half, filter.elements());
            for (int i = half; i < stream.length; i++)
            {
                resumed[i] = filter.stream(stream[i]);
            }
        }
        assertTrue(Arrays.asList(uninterrupted).contains(Verdict.DUPLICATE));
        assertTrue(Arrays.asList(uninterrupted).contains(Verdict.UNSEEN));
        for (int i = 0; i < stream.length; i++)
        {
            assertEquals(uninterrupted[i], resumed[i], "element " + i + " seed=" + seed);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void everyFormOfTheSameBytesIsTheSameElement(final FilterConfigs.Config config)
    {
        try (DuplicateFilter filter = config.build(1024, null).create())
        {
            final long value = 0x0102030405060708L;
            final byte[] le = {8, 7, 6, 5, 4, 3, 2, 1};
            assertEquals(Verdict.UNSEEN, filter.stream(value));
            assertEquals(Verdict.DUPLICATE, filter.stream(le, 0, 8));
            final String text = "dédoublonnage \uD83D\uDE00";
            final byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            final byte[] padded = new byte[utf8.length + 3];
            System.arraycopy(utf8, 0, padded, 3, utf8.length);
            assertEquals(Verdict.UNSEEN, filter.stream(text));
            assertEquals(Verdict.DUPLICATE, filter.stream(new StringBuilder(text)));
            assertEquals(Verdict.DUPLICATE, filter.stream(padded, 3, utf8.length));
            assertTrue(filter.contains(new org.agrona.concurrent.UnsafeBuffer(padded), 3, utf8.length));
            final org.agrona.concurrent.UnsafeBuffer direct =
                new org.agrona.concurrent.UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(64));
            direct.putBytes(10, utf8);
            assertEquals(Verdict.DUPLICATE, filter.stream(direct, 10, utf8.length));
        }
    }
}
