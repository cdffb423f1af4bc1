package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.stream.StreamSpec;
import io.ddf.bench.accuracy.stream.ElementStream;
import io.ddf.bench.accuracy.ConfigResult.Metric;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The harness's rates on filters whose answers are known. */
class AccuracyRunnerTest
{
    private static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @Test
    void exactWindowFilterIsExactlyRightAgainstItsWindow()
    {
        final long seed = TestSeed.seed();
        for (final StreamSpec stream : List.of(StreamSpec.uniform(4096, 40_000), StreamSpec.zipf(1 << 16, 1.1, 40_000)))
        {
            final ExperimentResult result = new AccuracyRunner(QUIET, false).run(new Experiment(stream,
                List.of(FilterSpec.parse("exact-window")), List.of(1L << 16), List.of(10L, 1000L), 2, 20, seed));
            assertEquals(2, result.configs().size());
            for (final ConfigResult c : result.configs())
            {
                assertNull(c.failure());
                for (final double[] checkpoint : c.mean())
                {
                    assertEquals(0.0, checkpoint[Metric.FPR_W.ordinal()], "FPR^w " + stream.name() + " w=" + c.window());
                    assertEquals(0.0, checkpoint[Metric.FNR_W.ordinal()], "FNR^w " + stream.name() + " w=" + c.window());
                }
                // Unbounded, it forgets what left the window: false negatives, never false positives.
                assertEquals(0.0, c.end(Metric.FPR));
                assertTrue(c.end(Metric.FNR) > 0, "FNR " + c.end(Metric.FNR));
            }
        }
    }

    @Test
    void aBloomFilterNeverGivesFalseNegativesAndSaturatesWithALongStream()
    {
        final ExperimentResult result = new AccuracyRunner(QUIET, false).run(new Experiment(
            StreamSpec.uniform(1 << 20, 50_000), List.of(FilterSpec.parse("bloom:hash-functions=3")),
            List.of(1L << 20, 1L << 12), List.of(), 1, 10, 7));
        final ConfigResult large = result.configs().get(0);
        final ConfigResult small = result.configs().get(1);
        assertEquals(0.0, large.end(Metric.FNR));
        assertEquals(0.0, small.end(Metric.FNR));
        assertTrue(large.end(Metric.FPR) < 0.01, "FPR " + large.end(Metric.FPR));
        assertTrue(small.end(Metric.FPR) > 0.9, "FPR " + small.end(Metric.FPR));
        assertTrue(Double.isNaN(large.end(Metric.ERROR_W)), "no window, no windowed rate");
    }

    @Test
    void threadedPassesGiveExactlyTheFiguresOfOnePass()
    {
        final long seed = TestSeed.seed();
        final Experiment experiment = new Experiment(StreamSpec.zipf(1 << 14, 0.9, 30_000),
            List.of(FilterSpec.parse("qht:buckets=2,fingerprint-bits=4"), FilterSpec.parse("a2"),
                FilterSpec.parse("qht:subfilters=4,buckets=1,fingerprint-bits=3")),
            List.of(1L << 12, 1L << 15), List.of(400L, 4000L), 2, 10, seed);
        final ExperimentResult one = new AccuracyRunner(QUIET, false, 1).run(experiment);
        final ExperimentResult three = new AccuracyRunner(QUIET, false, 3).run(experiment);
        assertEquals(12, one.configs().size());
        assertEquals(one.duplicates(), three.duplicates());
        for (int c = 0; c < one.configs().size(); c++)
        {
            final ConfigResult a = one.configs().get(c);
            final ConfigResult b = three.configs().get(c);
            assertEquals(a.parameters(), b.parameters());
            for (int j = 0; j < a.mean().length; j++)
            {
                assertArrayEquals(a.mean()[j], b.mean()[j], a.spec().label() +
                    " at " + a.memoryBits() + " bits, w=" + a.window() + ", checkpoint " + j);
            }
        }
        assertTrue(one.configs().get(0).end(Metric.ERROR) > 0, "a filter this small must err");
    }

    @Test
    void aFilterThatCannotBeBuiltIsReportedNotFatal()
    {
        final ExperimentResult result = new AccuracyRunner(QUIET, false).run(new Experiment(
            StreamSpec.uniform(100, 1000), List.of(FilterSpec.parse("qht:buckets=8,fingerprint-bits=2")),
            List.of(4096L), List.of(), 1, 5, 1));
        assertNotNull(result.configs().get(0).failure());
    }

    @Test
    void fileRecordsAreExactKeysFedAsBytes(@TempDir final Path dir) throws IOException
    {
        final Path file = dir.resolve("records.txt");
        Files.writeString(file, "a\nbb\r\na\n\nbb\nc\n\nlast", StandardCharsets.UTF_8);
        final StreamSpec spec = StreamSpec.file(file, 100);
        assertEquals(8, spec.length());
        final long[] keys = new long[8];
        try (ElementStream stream = spec.open(0))
        {
            for (int i = 0; i < keys.length; i++)
            {
                assertTrue(stream.next());
                keys[i] = stream.key();
            }
            assertTrue(!stream.next());
        }
        // "a", "bb" (CRLF stripped), "a", "", "bb", "c", "", "last"
        assertEquals(List.of(0L, 1L, 0L, 2L, 1L, 3L, 2L, 4L), java.util.Arrays.stream(keys).boxed().toList());
        final ExperimentResult result = new AccuracyRunner(QUIET, false).run(new Experiment(spec,
            List.of(FilterSpec.parse("exact-window")), List.of(1024L), List.of(100L), 1, 4, 1));
        assertEquals(0.0, result.configs().get(0).end(Metric.ERROR_W));
        assertEquals(0.375, result.duplicates(), 1e-12);
    }

    @Test
    void filterSpecsParseLabelsParametersAndMemoryMultiples()
    {
        final FilterSpec spec = FilterSpec.parse("A2 tuned@a2:window=0.25*M,hash-functions=3");
        assertEquals("A2 tuned", spec.label());
        assertEquals(1000, spec.window(4000, 0));
        assertEquals(4000L, spec.builder(4000, 0, 1).parameters().get("window") * 4);
        final FilterSpec queued = FilterSpec.parse("qht:subfilters=10,buckets=1,fingerprint-bits=3");
        assertTrue(queued.queued());
        assertEquals(10, queued.subfilters());
        assertEquals(2000, queued.scaled(0.5).window(1000, 2000), "an inherited window is not the spec's to scale");
        assertEquals("bdbf:window=300", FilterSpec.parse("bdbf:window=6000").scaled(0.05).text());
    }
}
