package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.ConfigResult.Metric;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The presets of seed 001 Fig. 2 and 7, seed 003 Table 4 and seed 004 Table 2 run end to end at a tiny scale: every
 * output is written, every rate is a rate, and the paper's figures or the lower bound reach the markdown.
 */
class PaperPresetsTest
{
    @ParameterizedTest
    @CsvSource({
        "seed001-fig2, 0.0002, lower bound (seed 001 Th. 4)",
        "seed001-fig7, 0.05, Windowed error rate",
        "seed003-table4, 0.001, (3.71/1.35)",
        "seed004-table2, 0.001, n/a (11.74/84.45)"})
    void presetRunsAtATinyScale(final String name, final double scale, final String expected,
        @TempDir final Path dir) throws IOException
    {
        final Reproduction reproduction = Presets.get(name, null).scaled(scale);
        final AccuracyRunner runner = new AccuracyRunner(
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false);
        final List<ExperimentResult> results = new ArrayList<>();
        for (final Experiment experiment : reproduction.experiments())
        {
            results.add(runner.run(experiment));
        }
        int built = 0;
        for (final ExperimentResult result : results)
        {
            for (final ConfigResult c : result.configs())
            {
                if (c.failure() != null)
                {
                    continue;
                }
                built++;
                for (final double[] rates : c.mean())
                {
                    for (final Metric m : new Metric[] {Metric.FPR, Metric.FNR, Metric.FPR_W, Metric.FNR_W})
                    {
                        final double v = rates[m.ordinal()];
                        assertTrue(Double.isNaN(v) || (v >= 0 && v <= 1), name + " " + c.spec().label() + " " + m +
                            " = " + v);
                    }
                }
                assertFalse(Double.isNaN(c.end(c.window() > 0 ? Metric.ERROR_W : Metric.ERROR)),
                    name + " " + c.spec().label() + " has no end rate");
            }
        }
        assertTrue(built > 0, name + ": nothing built");

        CsvOutput.write(results, dir.resolve("accuracy.csv"));
        MarkdownOutput.write(reproduction.title(), List.of(reproduction.note()), results, reproduction.paper(),
            dir.resolve("table.md"));
        final List<Path> pngs = PlotOutput.write(results, dir);
        assertTrue(Files.size(dir.resolve("accuracy.csv")) > 0);
        final String md = Files.readString(dir.resolve("table.md"));
        assertTrue(md.contains(expected), md);
        assertFalse(pngs.isEmpty());
        for (final Path png : pngs)
        {
            assertTrue(Files.size(png) > 1000, png.toString());
        }
        if (name.equals("seed001-fig7"))
        {
            assertTrue(pngs.stream().anyMatch(p -> p.getFileName().toString().contains("-across-windows-")), pngs
                .toString());
        }
    }

    @Test
    void alphabetGivesTheDistinctShare()
    {
        final long seed = TestSeed.seed();
        final int length = 200_000;
        for (final double fraction : new double[] {0.15, 0.6, 0.9})
        {
            final long alphabet = DistinctFraction.alphabet(length, fraction);
            final SplittableRandom random = new SplittableRandom(seed);
            final java.util.BitSet seen = new java.util.BitSet();
            for (int i = 0; i < length; i++)
            {
                seen.set((int)random.nextLong(alphabet));
            }
            final double share = (double)seen.cardinality() / length;
            assertEquals(fraction, share, 0.01, "fraction " + fraction + ", alphabet " + alphabet + ", seed " + seed);
        }
    }

    @Test
    void bestSubfiltersDivideTheWindowAndBeatTheirNeighbours()
    {
        for (final long w : new long[] {1_000, 10_000, 100_000})
        {
            final double[] best = QueuedOptimum.bestSubfilters(100_000, w, 1 << 18, 1, 3);
            final long l = (long)best[0];
            assertEquals(0, w % l, "w = " + w + ", L = " + l);
            assertTrue(best[1] >= 0 && best[1] <= 1 && best[2] >= 0 && best[2] <= 1, "w = " + w);
        }
        // Seed 001 Fig. 6: the best L shrinks as the window grows.
        assertTrue(QueuedOptimum.bestSubfilters(100_000, 1_000, 1 << 18, 1, 3)[0] >
            QueuedOptimum.bestSubfilters(100_000, 100_000, 1 << 18, 1, 3)[0]);
    }

    @Test
    void memoriesInMegabytesAndMilestones()
    {
        assertEquals("33554432 (4 MB)", MarkdownOutput.memoryText(33_554_432L));
        assertEquals("2097152 (0.25 MB)", MarkdownOutput.memoryText(2_097_152L));
        assertEquals("1000000", MarkdownOutput.memoryText(1_000_000L));
        final long[] positions = new long[1500];
        for (int j = 0; j < positions.length; j++)
        {
            positions[j] = 100_000L * (j + 1);
        }
        final List<Integer> picked = MarkdownOutput.milestones(positions);
        assertEquals(100_000L, positions[picked.get(0)]);
        assertEquals(150_000_000L, positions[picked.get(picked.size() - 1)]);
        assertTrue(picked.stream().map(j -> positions[j]).toList().contains(10_000_000L));
    }
}
