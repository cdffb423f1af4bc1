package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.stream.StreamSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reference designs as kinds of the accuracy harness, and the window-memory comparison's outputs. */
class WindowMemoryTest
{
    private static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @Test
    void referenceKindsParseAndTakeTheRunsMemoryUnlessSized()
    {
        final FilterSpec apbf = FilterSpec.parse("A@apbf:capacity=1000,k=7,l=5");
        assertNull(apbf.kind());
        assertEquals(ReferenceKind.APBF, apbf.reference());
        assertTrue(apbf.takesMemory());
        assertEquals("apbf:capacity=1000,k=7,l=5", apbf.text());
        assertTrue(!FilterSpec.parse("apbf:capacity=1000,target-fpr=0.01").takesMemory());
        assertTrue(!FilterSpec.parse("fifo-bloom:capacity=1000,own-size=1").takesMemory());
        assertThrows(IllegalArgumentException.class, () -> FilterSpec.parse("apbf:k=7").create(1 << 16, 100, 1));
        assertThrows(IllegalArgumentException.class,
            () -> FilterSpec.parse("apbf-time:capacity=100").create(1 << 16, 0, 1));
        assertThrows(IllegalArgumentException.class,
            () -> FilterSpec.parse("rotating-bloom:capacity=100,bogus=1").create(1 << 16, 0, 1));
        assertEquals(12L * 4_096, FilterSpec.stateBits(FilterSpec.parse("apbf:capacity=1000,k=7,l=5")
            .create(12L * 4_096, 0, 1)));
    }

    @Test
    void everyDesignKeepsItsWindowAndTheTableReadsTheSweep(@TempDir final Path dir) throws IOException
    {
        final long n = 2_000;
        final String timed = "capacity=" + n + ",window-ms=" + 10 * n + ",per-item-ms=10";
        final List<FilterSpec> filters = List.of(
            FilterSpec.parse("ddf@fifo-bloom:" + timed + ",slices=2,time-source=1"),
            FilterSpec.parse("APBF by count@apbf:capacity=" + n),
            FilterSpec.parse("APBF by time@apbf-time:" + timed),
            FilterSpec.parse("two rotating Blooms@rotating-bloom-time:" + timed),
            FilterSpec.parse("sized for 0.01: APBF@apbf:capacity=" + n + ",target-fpr=0.01"));
        // all distinct elements (an alphabet of 2^40): no repeat, so every verdict DUPLICATE is a false positive
        final Experiment experiment = new Experiment(StreamSpec.uniform(1L << 40, 40 * n), filters,
            List.of(10 * n, 20 * n, 30 * n), List.of(n - 1), 1, 4, 29);
        final List<ExperimentResult> results = List.of(new AccuracyRunner(QUIET, false, 1).run(experiment));
        final List<WindowMemory.Point> points = WindowMemory.points(results);
        assertEquals(4 * 3 + 1, points.size());
        for (final WindowMemory.Point p : points)
        {
            assertTrue(p.stateBits() > 0, p.toString());
            assertTrue(p.fpr() > 0 && p.fpr() < 0.5, p.toString());
        }
        // every design gains from memory
        for (final String design : List.of("ddf", "APBF by count", "APBF by time", "two rotating Blooms"))
        {
            final List<WindowMemory.Point> sweep = points.stream().filter(p -> p.label().equals(design)).toList();
            assertTrue(sweep.get(0).fpr() > sweep.get(2).fpr(), design);
            final double bits = WindowMemory.bitsAt(sweep, Math.sqrt(sweep.get(0).fpr() * sweep.get(2).fpr()));
            assertTrue(bits > 10 && bits < 30, design + ": " + bits);
        }
        // the paper's sizing for 1 % holds it at the steady rate (its formula takes the newest generation full)
        final WindowMemory.Point sized = points.get(points.size() - 1);
        assertTrue(sized.fpr() < 0.0115, sized.toString());
        final List<Path> files = WindowMemory.write(results, dir, "test");
        assertEquals(3, files.size());
        final String table = Files.readString(dir.resolve("targets.md"));
        assertTrue(table.contains("| APBF by count |"), table);
        assertTrue(Files.size(dir.resolve("bits-per-item-vs-fpr.png")) > 1_000);
        assertEquals(points.size() + 1, Files.readAllLines(dir.resolve("window-memory.csv")).size());
    }

    @Test
    void bitsAtInterpolatesOnLogFpr()
    {
        final List<WindowMemory.Point> sweep = List.of(
            new WindowMemory.Point("d", "", 0, 100, 10, 0.1, 0, ""),
            new WindowMemory.Point("d", "", 0, 200, 20, 0.001, 0, ""));
        assertEquals(15, WindowMemory.bitsAt(sweep, 0.01), 1e-9);
        assertEquals(10, WindowMemory.bitsAt(sweep, 0.5), 1e-9);
        assertTrue(Double.isNaN(WindowMemory.bitsAt(sweep, 1e-4)));
    }
}
