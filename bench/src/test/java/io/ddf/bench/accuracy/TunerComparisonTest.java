package io.ddf.bench.accuracy;

import org.junit.jupiter.api.Test;

import java.io.PrintStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tuner's pick is never worse than the paper's QHT (k = 1, s = 3) by more than {@value #TOLERANCE} points of
 * FPR + FNR, measured, on the eight seed 000 Table 2 cells at 1/500 of their size (300,000 elements; memories of
 * 16,000 to 20 bits), and every filter's measured rates are within that of the tuner's prediction on the cells
 * where the models hold (those without a validity note; SBF gets {@value #SBF_TOLERANCE}, see
 * ModelVsMeasurementTest). Stream seed 2026 by default; {@code -Dddf.test.seed} overrides, printed on failure.
 */
class TunerComparisonTest
{
    private static final double TOLERANCE = 1.0;
    private static final double SBF_TOLERANCE = 3.0;
    /** fifo-bloom at 3 bits per item and more: within 1 point in ModelVsMeasurementTest; 5 kept as before. */
    private static final double FIFO_TOLERANCE = 5.0;
    private static final double SCALE = 0.002;

    @Test
    void pickIsNeverWorseThanThePapersQhtAndPredictionsHold()
    {
        final long seed = Long.getLong("ddf.test.seed", 2026L);
        final TunerComparison.Cells cells = TunerComparison.cells(1, SCALE, seed);
        final AccuracyRunner runner = new AccuracyRunner(new PrintStream(OutputStream.nullOutputStream()), false, 1);
        final List<ExperimentResult> results = new ArrayList<>();
        for (final Experiment e : cells.reproduction().experiments())
        {
            results.add(runner.run(e));
        }
        final List<TunerComparison.Row> rows = TunerComparison.rows(cells, results);
        assertEquals(8, rows.stream().filter(TunerComparison.Row::paper).count());
        assertEquals(8, rows.stream().filter(TunerComparison.Row::pick).count());
        for (int e = 0; e < 8; e++)
        {
            final int cell = e;
            final TunerComparison.Row paper = rows.stream().filter(r -> r.experiment() == cell && r.paper())
                .findFirst().orElseThrow();
            final TunerComparison.Row pick = rows.stream().filter(r -> r.experiment() == cell && r.pick())
                .findFirst().orElseThrow();
            final String line = String.format(Locale.ROOT, "cell U=%.0f M=%d: paper %.2f, pick %s %.2f (seed %d, " +
                "replay with -Dddf.test.seed=%d)", paper.workload().alphabet(), paper.memoryBits(),
                100 * paper.error(), pick.label(), 100 * pick.error(), seed, seed);
            System.out.println(line);
            assertTrue(pick.error() <= paper.error() + TOLERANCE / 100, line);
        }
        for (final TunerComparison.Row r : rows)
        {
            final double tolerance = (r.label().contains("sbf") ? SBF_TOLERANCE : r.label().contains("fifo-bloom") ?
                FIFO_TOLERANCE : TOLERANCE) / 100;
            // a fifo-bloom under 3 bits per capacity item carries the tuner's DENSE caveat: with blocked generations
            // its mean field misses by up to 9 points of FPR and 16 of FNR there (76.4 / 10.9 % measured, 67.1 /
            // 27.2 % predicted at M = 16,000, capacity 8,000, U = 268,435, seed 2026), so it is not held to a tolerance
            final java.util.regex.Matcher capacity = java.util.regex.Pattern.compile("capacity=(\\d+)")
                .matcher(r.label());
            final boolean dense = r.label().contains("fifo-bloom") && capacity.find() &&
                r.memoryBits() < 3 * Long.parseLong(capacity.group(1));
            final boolean holds = (!r.label().contains("buckets=") || r.label().contains("buckets=1 ")) && !dense;
            final String line = String.format(Locale.ROOT, "U=%.0f M=%d %s: measured %.2f / %.2f, predicted %.2f / " +
                "%.2f (seed %d)", r.workload().alphabet(), r.memoryBits(), r.label(), 100 * r.fpr(), 100 * r.fnr(),
                100 * r.predictedFpr(), 100 * r.predictedFnr(), seed);
            if (holds)
            {
                assertTrue(Math.abs(r.fpr() - r.predictedFpr()) <= tolerance &&
                    Math.abs(r.fnr() - r.predictedFnr()) <= tolerance, line);
            }
        }
    }
}
