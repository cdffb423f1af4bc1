package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.stream.StreamSpec;
import io.ddf.engine.tune.Candidate;
import io.ddf.engine.tune.Objective;
import io.ddf.engine.tune.Tuner;
import io.ddf.engine.tune.Tuning;
import io.ddf.engine.tune.Workload;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Preset {@value #PRESET}: on each cell of seed 000 Tables 2/4 (uniform streams over 2^24 and 2^27, 8·10^6 to
 * 10^4 bits, 150,000,000 elements; multiplied by --scale), the paper's QHT (k = 1, s = 3) beside the tuner's best
 * shape of every kind it models for FPR + FNR (one of them the tuner's overall pick), each with the model's
 * prediction, computed at the scaled cell so that prediction and measurement are of the same filter and stream.
 * Besides the harness's outputs it writes {@code comparison.md} (predicted beside measured, per cell) and
 * {@code comparison.png} (measured error of the pick against the paper's, per cell).
 *
 * <p>Only the uniform rows run. The harness can stream a file ({@code --stream file}), but the paper's real rows are
 * its own crawl of CommonCrawl's April 2018 URLs (10.3 % duplicates), which is not here; and the tuner weighs a
 * stream by a uniform or Zipf law, so a file's rows would need its law fitted first (not built).
 */
public final class TunerComparison
{
    /** The preset's name. */
    public static final String PRESET = "seed000-table2-tuner";
    /** The paper's QHT on Table 2. */
    public static final String PAPER_LABEL = "paper QHT k=1 s=3";
    /** Label prefix of the tuner's overall pick. */
    public static final String PICK_PREFIX = "PICK ";

    private static final long SEED = 2026;
    private static final int CHECKPOINTS = 20;
    private static final long LENGTH = 150_000_000L;
    private static final long[] ALPHABETS = {1L << 24, 1L << 27};
    private static final long[] MEMORIES = {8_000_000L, 1_000_000L, 100_000L, 10_000L};
    /** Seed 000 Table 4, QHT k = 1, s = 3: FPR %, FNR % per alphabet and memory. */
    private static final double[][][] PAPER = {
        {{12.02, 70.74}, {14.00, 83.80}, {14.26, 85.53}, {14.28, 85.69}},
        {{13.86, 81.52}, {14.24, 85.18}, {14.29, 85.66}, {14.28, 85.72}}};

    private TunerComparison()
    {
    }

    /**
     * @param runs  runs to average (null: 1).
     * @param scale the factor on length, alphabets and memories.
     * @return one experiment per cell, the tunings keyed by experiment index in {@link Cells}.
     */
    public static Cells cells(final Integer runs, final double scale)
    {
        return cells(runs, scale, SEED);
    }

    /**
     * @param runs  runs to average (null: 1).
     * @param scale the factor on length, alphabets and memories.
     * @param seed  the seed the streams derive from (the 2^27 stream's is seed + 1).
     * @return one experiment per cell.
     */
    public static Cells cells(final Integer runs, final double scale, final long seed)
    {
        final List<Experiment> experiments = new ArrayList<>();
        final List<Tuning> tunings = new ArrayList<>();
        final PaperFigures paper = new PaperFigures("seed 000 Table 4 (QHT k=1, s=3, at full size)");
        final long n = Math.max(1, Math.round(LENGTH * scale));
        for (int a = 0; a < ALPHABETS.length; a++)
        {
            final long u = Math.max(2, Math.round(ALPHABETS[a] * scale));
            for (int m = 0; m < MEMORIES.length; m++)
            {
                final long memory = Math.max(1, Math.round(MEMORIES[m] * scale));
                final Tuning t = Tuner.tune(memory, Workload.uniform(n, u), Objective.ERROR_RATE);
                final List<FilterSpec> filters = new ArrayList<>();
                filters.add(FilterSpec.parse(PAPER_LABEL + "@qht:buckets=1,fingerprint-bits=3"));
                for (final Candidate c : t.bestPerKind())
                {
                    filters.add(FilterSpec.parse(label(t, c) + "@" + spec(c)));
                }
                paper.put(experiments.size(), 0, PAPER_LABEL, PAPER[a][m][0], PAPER[a][m][1],
                    PAPER[a][m][0] + PAPER[a][m][1]);
                experiments.add(new Experiment(StreamSpec.uniform(u, n), filters, List.of(memory), List.of(),
                    runs == null ? 1 : runs, CHECKPOINTS, seed + a));
                tunings.add(t);
            }
        }
        final Reproduction reproduction = new Reproduction("Seed 000 Table 2 cells: the tuner's picks beside the " +
            "paper's QHT", String.format(Locale.ROOT, "Uniform streams over 2^24 and 2^27, memories 8e6 to 1e4 bits, " +
            "150,000,000 elements, all multiplied by %s; one experiment per cell (same stream seed per alphabet). " +
            "Filters: the paper's QHT (k = 1, s = 3) and `ddf tune --memory-bits M --alphabet U --stream-length n`'s " +
            "best shape of every kind it models for FPR + FNR, computed at the scaled cell; %s marks its overall " +
            "pick. The paper's real-data rows (its CommonCrawl April 2018 URL stream) are not available here, and the " +
            "tuner takes a uniform or Zipf law, not a file.", scale, PICK_PREFIX.trim()),
            experiments, paper);
        return new Cells(reproduction, tunings);
    }

    /**
     * @param reproduction the experiments to run.
     * @param tunings      the tuning of each experiment (same index).
     */
    public record Cells(Reproduction reproduction, List<Tuning> tunings)
    {
    }

    /**
     * @param t a tuning.
     * @param c one of its best-per-kind candidates.
     * @return the label of c's filter in the experiment.
     */
    public static String label(final Tuning t, final Candidate c)
    {
        return (c == t.pick() ? PICK_PREFIX : "") + c.label().replace(',', ' ');
    }

    /** @return KIND:NAME=VALUE,... without memory-bits (the experiment's memory). */
    private static String spec(final Candidate c)
    {
        final StringBuilder s = new StringBuilder(c.kind().cliName());
        String sep = ":";
        for (final Map.Entry<String, Number> e : c.parameters().entrySet())
        {
            if (!e.getKey().equals("memory-bits"))
            {
                s.append(sep).append(e.getKey()).append('=').append(e.getValue());
                sep = ",";
            }
        }
        return s.toString();
    }

    /**
     * One row per filter per cell: predicted and measured rates.
     *
     * @param cells   the cells.
     * @param results the harness's results, in experiment order.
     * @return rows: {experiment, label, predicted FPR, predicted FNR, measured FPR, measured FNR} (rates as
     *         fractions; the paper's QHT predicted by the tuner's QHT model).
     */
    public static List<Row> rows(final Cells cells, final List<ExperimentResult> results)
    {
        final List<Row> rows = new ArrayList<>();
        for (int e = 0; e < results.size(); e++)
        {
            final Tuning t = cells.tunings().get(e);
            final Map<String, Candidate> byLabel = new LinkedHashMap<>();
            for (final Candidate c : t.bestPerKind())
            {
                byLabel.put(label(t, c), c);
            }
            final Workload w = t.workload();
            final Map<String, Number> paper = new LinkedHashMap<>();
            paper.put("memory-bits", t.memoryBits());
            paper.put("buckets", 1L);
            paper.put("fingerprint-bits", 3L);
            byLabel.put(PAPER_LABEL, Tuner.predict(io.ddf.engine.FilterKind.QHT, paper, w));
            for (final ConfigResult r : results.get(e).configs())
            {
                final Candidate c = byLabel.get(r.spec().label());
                rows.add(new Row(e, w, t.memoryBits(), r.spec().label(), c.fpr(), c.fnr(),
                    r.end(ConfigResult.Metric.FPR), r.end(ConfigResult.Metric.FNR)));
            }
        }
        return rows;
    }

    /**
     * @param experiment   the experiment index.
     * @param workload     its stream.
     * @param memoryBits   its memory.
     * @param label        the filter's label.
     * @param predictedFpr the model's FPR.
     * @param predictedFnr the model's FNR.
     * @param fpr          the measured FPR.
     * @param fnr          the measured FNR.
     */
    public record Row(int experiment, Workload workload, long memoryBits, String label, double predictedFpr,
        double predictedFnr, double fpr, double fnr)
    {
        /** @return measured FPR + FNR. */
        public double error()
        {
            return fpr + fnr;
        }

        /** @return true for the tuner's overall pick. */
        public boolean pick()
        {
            return label.startsWith(PICK_PREFIX);
        }

        /** @return true for the paper's QHT. */
        public boolean paper()
        {
            return label.equals(PAPER_LABEL);
        }
    }

    /**
     * Writes comparison.md and comparison.png.
     *
     * @param cells   the cells.
     * @param results the results.
     * @param dir     the output directory.
     * @param command the command line, for the record.
     * @throws IOException when a file cannot be written.
     */
    public static void write(final Cells cells, final List<ExperimentResult> results, final Path dir,
        final String command) throws IOException
    {
        final List<Row> rows = rows(cells, results);
        final StringBuilder md = new StringBuilder("# The tuner's picks beside the paper's QHT on seed 000 Table 2 " +
            "cells\n\n").append(cells.reproduction().note()).append("\n\nCommand: `").append(command).append("`\n\n");
        md.append("## Error rate ×100 (FPR + FNR) at the end of the stream, measured (predicted)\n\n");
        md.append("| alphabet | memory (bits) | paper QHT k=1 s=3 | tuner pick | pick's shape | pick − paper |\n");
        md.append("| --- | --- | --- | --- | --- | --- |\n");
        final List<double[]> points = new ArrayList<>();
        for (int e = 0; e < results.size(); e++)
        {
            Row paper = null;
            Row pick = null;
            for (final Row r : rows)
            {
                if (r.experiment() == e)
                {
                    paper = r.paper() ? r : paper;
                    pick = r.pick() ? r : pick;
                }
            }
            md.append(String.format(Locale.ROOT, "| %.0f | %d | %.2f (%.2f) | %.2f (%.2f) | %s | %+.2f |%n",
                paper.workload().alphabet(), paper.memoryBits(), 100 * paper.error(),
                100 * (paper.predictedFpr() + paper.predictedFnr()), 100 * pick.error(),
                100 * (pick.predictedFpr() + pick.predictedFnr()), pick.label().substring(PICK_PREFIX.length()),
                100 * (pick.error() - paper.error())));
            points.add(new double[] {e, 100 * paper.error(), 100 * pick.error()});
        }
        md.append("\n## Every filter: FPR % / FNR %, measured (predicted), and the model's miss in points\n\n");
        md.append("| alphabet | memory (bits) | filter | measured FPR / FNR | predicted FPR / FNR | miss FPR / FNR |\n");
        md.append("| --- | --- | --- | --- | --- | --- |\n");
        for (final Row r : rows)
        {
            md.append(String.format(Locale.ROOT, "| %.0f | %d | %s | %.2f / %.2f | %.2f / %.2f | %+.2f / %+.2f |%n",
                r.workload().alphabet(), r.memoryBits(), r.label(), 100 * r.fpr(), 100 * r.fnr(),
                100 * r.predictedFpr(), 100 * r.predictedFnr(), 100 * (r.predictedFpr() - r.fpr()),
                100 * (r.predictedFnr() - r.fnr())));
        }
        Files.writeString(dir.resolve("comparison.md"), md.toString(), StandardCharsets.UTF_8);
        plot(points, dir.resolve("comparison"));
    }

    private static void plot(final List<double[]> points, final Path file) throws IOException
    {
        final XYChart chart = new XYChartBuilder().width(800).height(500)
            .title("Seed 000 Table 2 cells: measured FPR + FNR (x100), paper's QHT and the tuner's pick")
            .xAxisTitle("cell (2^24: 8e6, 1e6, 1e5, 1e4 bits; then 2^27: the same)").yAxisTitle("error x100").build();
        final double[] x = new double[points.size()];
        final double[] paper = new double[points.size()];
        final double[] pick = new double[points.size()];
        for (int i = 0; i < points.size(); i++)
        {
            x[i] = points.get(i)[0] + 1;
            paper[i] = points.get(i)[1];
            pick[i] = points.get(i)[2];
        }
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.addSeries("paper QHT k=1 s=3", x, paper).setMarker(SeriesMarkers.CIRCLE);
        chart.addSeries("tuner pick", x, pick).setMarker(SeriesMarkers.DIAMOND);
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
