package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.stream.StreamSpec;
import io.ddf.bench.accuracy.ConfigResult.Metric;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The preset {@code window-memory} (issue 29 item 5): memory against false positive rate for one window guarantee,
 * "an element added at t answers DUPLICATE until at least t + W, given at most n new elements per window", across
 * ddf's fifo-bloom with a window of time, ddf's aged-cuckoo (one cuckoo table whose entries carry a generation stamp),
 * the age-partitioned Bloom filter (APBF, count- and time-based) and two rotating Bloom filters (the client's
 * approach). Every design runs at a sweep of memories on one uniform stream at the steady rate (element i at time
 * i · 10 ms, so n elements are one window W = 10 n ms); the FPR is measured over the elements never seen before, the
 * FNR over the elements seen within the last n - 1 (inside the window, where every design promises none). Each design also runs once as its own sizing rule makes it for ε = 10 %, 1 % and
 * 0.1 % (ddf's fifo-bloom given the error rate, aged-cuckoo given it, the paper's APBF sizing, two Blooms at ε / 2
 * each). aged-cuckoo refuses a memory below what its live elements need at its planned load, so its sweeps start
 * there; it takes one sweep per fingerprint width (its error at a memory follows the width and the load).
 *
 * <p>Writes {@code window-memory.csv} (one row per design and memory), {@code targets.md} (each design's least bits
 * per item meeting each target, and the sizing rules' points) and {@code bits-per-item-vs-fpr.png}.
 */
public final class WindowMemory
{
    /** The preset's name. */
    public static final String PRESET = "window-memory";
    /** The targets the table reads off the sweep. */
    static final double[] TARGETS = {0.1, 0.01, 0.001};
    /** Bits per item of the sweep. */
    static final int[] BITS_PER_ITEM = {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 20, 22, 24, 26, 28, 32, 36, 40,
        44};
    private static final long PER_ITEM_MS = 10;
    private static final long N = 100_000;
    private static final long LENGTH = 4_000_000;
    private static final long ALPHABET = 1L << 26;
    private static final long SEED = 2026;
    private static final String SIZED = "sized for ";

    private WindowMemory()
    {
    }

    /**
     * @param runs  runs to average, or null for 1.
     * @param scale multiplies n, the stream's length and its alphabet.
     * @return the reproduction.
     */
    public static Reproduction reproduction(final Integer runs, final double scale)
    {
        final long n = Math.max(100, Math.round(N * scale));
        final long length = Math.max(10 * n, Math.round(LENGTH * scale));
        final long alphabet = Math.max(1024, Math.round(ALPHABET * scale));
        final long w = n * PER_ITEM_MS;
        final String timed = String.format(Locale.ROOT, "capacity=%d,window-ms=%d,per-item-ms=%d", n, w, PER_ITEM_MS);
        final List<FilterSpec> filters = new ArrayList<>();
        for (final int l : new int[] {1, 2, 4})
        {
            filters.add(FilterSpec.parse("ddf fifo-bloom window L=" + l + "@fifo-bloom:" + timed + ",slices=" + l +
                ",time-source=1"));
        }
        // aged-cuckoo: one table of 16-bit slots (fingerprint + stamp), f from the target, so one sweep per f; four
        // slots a bucket (bucket-words 0, the layout these points were first measured with), and eight at 1 %
        filters.add(FilterSpec.parse("ddf aged-cuckoo L=16 f=7@aged-cuckoo:" + timed +
            ",slices=16,time-source=1,target-fpr=0.1,bucket-words=0"));
        filters.add(FilterSpec.parse("ddf aged-cuckoo L=16 f=10@aged-cuckoo:" + timed +
            ",slices=16,time-source=1,target-fpr=0.01,bucket-words=0"));
        filters.add(FilterSpec.parse("ddf aged-cuckoo L=2 f=13@aged-cuckoo:" + timed +
            ",slices=2,time-source=1,target-fpr=0.001,bucket-words=0"));
        filters.add(FilterSpec.parse("ddf aged-cuckoo b=8 L=14 f=11@aged-cuckoo:" + timed +
            ",slices=14,time-source=1,target-fpr=0.01,bucket-words=2"));
        filters.add(FilterSpec.parse("APBF by count@apbf:capacity=" + n));
        filters.add(FilterSpec.parse("APBF by time@apbf-time:" + timed));
        filters.add(FilterSpec.parse("two rotating Blooms@rotating-bloom-time:" + timed));
        for (final double target : TARGETS)
        {
            final String eps = String.format(Locale.ROOT, "%s", target);
            filters.add(FilterSpec.parse(SIZED + eps + ": ddf fifo-bloom window L=2@fifo-bloom:" + timed +
                ",slices=2,time-source=1,target-fpr=" + eps + ",own-size=1"));
            filters.add(FilterSpec.parse(SIZED + eps + ": ddf aged-cuckoo L=" + agedSlices(target) + "@aged-cuckoo:" +
                timed + ",slices=" + agedSlices(target) + ",time-source=1,target-fpr=" + eps + ",own-size=1"));
            filters.add(FilterSpec.parse(SIZED + eps + ": APBF (paper's k, l)@apbf:capacity=" + n + ",target-fpr=" +
                eps));
            filters.add(FilterSpec.parse(SIZED + eps + ": two rotating Blooms at eps/2@rotating-bloom-time:" + timed +
                ",target-fpr=" + eps));
        }
        // the most slices 10-bit fingerprints' 63 stamps hold (2 L + 3 <= 63): the least memory at 1 % (four slots)
        filters.add(FilterSpec.parse(SIZED + "0.01: ddf aged-cuckoo L=30@aged-cuckoo:" + timed +
            ",slices=30,time-source=1,target-fpr=0.01,own-size=1"));
        // the default at 1 % since eight-slot buckets: 11-bit fingerprints, 31 stamps, L = 14
        filters.add(FilterSpec.parse(SIZED + "0.01: ddf aged-cuckoo b=8 L=14@aged-cuckoo:" + timed +
            ",slices=14,time-source=1,target-fpr=0.01,own-size=1"));
        final List<Long> memories = new ArrayList<>();
        for (final int b : BITS_PER_ITEM)
        {
            memories.add(b * n);
        }
        final String note = String.format(Locale.ROOT, "One window guarantee: an element added at t answers " +
            "DUPLICATE until at least t + W, given at most n = %,d new elements per window W = %,d ms. A uniform " +
            "stream of %,d elements over %,d values at the steady rate (element i at time i x %d ms, n per W); FPR " +
            "over the elements never seen before, FNR over those seen within the last n - 1 elements (within W). " +
            "Bits per item: the design's state bits / n.", n, w, length, alphabet, PER_ITEM_MS);
        return new Reproduction("Window memory: bits per item against FPR for one window guarantee", note,
            List.of(new Experiment(StreamSpec.uniform(alphabet, length), filters, memories, List.of(n - 1),
                runs == null ? 1 : runs, 10, SEED)), PaperFigures.NONE);
    }

    /**
     * @param target an error rate.
     * @return aged-cuckoo's slices for it: 16 (the default) while its fingerprints leave 6 or more stamp bits, else
     *     the most its stamps hold (2 at 0.1 %: 13-bit fingerprints, 3 stamp bits, 7 stamps for 2 L + 3). 16 keeps
     *     four slots a bucket at 1 % (eight need L at most 14: the b=8 point beside).
     */
    static int agedSlices(final double target)
    {
        return target < 0.005 ? 2 : 16;
    }

    /** One design at one memory: its bits per item and rates. */
    record Point(String label, String spec, long memoryBits, long stateBits, double bitsPerItem, double fpr,
        double fnrWindow, String parameters)
    {
    }

    /**
     * @param results the preset's results.
     * @return its points, in the order run.
     */
    static List<Point> points(final List<ExperimentResult> results)
    {
        final List<Point> points = new ArrayList<>();
        for (final ExperimentResult result : results)
        {
            final long n = result.experiment().windows().get(0) + 1;
            for (final ConfigResult c : result.configs())
            {
                if (c.failure() != null)
                {
                    continue;
                }
                points.add(new Point(c.spec().label(), c.spec().text(), c.memoryBits(), c.stateBits(),
                    c.stateBits() / (double)n, c.end(Metric.FPR), c.end(Metric.FNR_W), c.parameters()));
            }
        }
        return points;
    }

    /**
     * @param points a design's sweep, in increasing memory.
     * @param target an FPR.
     * @return the least bits per item at which the sweep meets the target: the first memory whose FPR is at most the
     *         target, interpolated on log FPR from the memory before it; NaN when no memory meets it.
     */
    static double bitsAt(final List<Point> points, final double target)
    {
        for (int i = 0; i < points.size(); i++)
        {
            final Point p = points.get(i);
            if (p.fpr() <= target)
            {
                if (i == 0 || p.fpr() <= 0)
                {
                    return p.bitsPerItem();
                }
                final Point q = points.get(i - 1);
                final double t = (Math.log(q.fpr()) - Math.log(target)) / (Math.log(q.fpr()) - Math.log(p.fpr()));
                return q.bitsPerItem() + t * (p.bitsPerItem() - q.bitsPerItem());
            }
        }
        return Double.NaN;
    }

    /**
     * Writes the CSV, the table of targets and the plot.
     *
     * @param results the preset's results.
     * @param dir     the output directory.
     * @param command the command line, for the table.
     * @return the files written.
     * @throws IOException when a file cannot be written.
     */
    public static List<Path> write(final List<ExperimentResult> results, final Path dir, final String command)
        throws IOException
    {
        final List<Point> points = points(results);
        final Map<String, List<Point>> sweeps = new LinkedHashMap<>();
        final List<Point> sized = new ArrayList<>();
        for (final Point p : points)
        {
            if (p.label().startsWith(SIZED))
            {
                sized.add(p);
            }
            else
            {
                sweeps.computeIfAbsent(p.label(), k -> new ArrayList<>()).add(p);
            }
        }
        sweeps.values().forEach(list -> list.sort(java.util.Comparator.comparingLong(Point::stateBits)));
        final List<Path> files = new ArrayList<>();
        final Path csv = dir.resolve("window-memory.csv");
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8)))
        {
            out.println("design,spec,memory_bits,state_bits,bits_per_item,fpr,fnr_w,parameters");
            for (final Point p : points)
            {
                out.printf(Locale.ROOT, "\"%s\",\"%s\",%d,%d,%.4f,%.7f,%.7f,\"%s\"%n", p.label(), p.spec(),
                    p.memoryBits(), p.stateBits(), p.bitsPerItem(), p.fpr(), p.fnrWindow(),
                    p.parameters().replace("\"", "\"\""));
            }
        }
        files.add(csv);
        final Path table = dir.resolve("targets.md");
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(table, StandardCharsets.UTF_8)))
        {
            out.println("# Bits per item for one window guarantee");
            out.println();
            out.println("Command: `" + command + "`");
            out.println();
            out.println("Least bits per item whose measured FPR meets the target (interpolated on log FPR between " +
                "the two memories of the sweep around it), and the ratio to APBF's:");
            out.println();
            final StringBuilder head = new StringBuilder("| design |");
            final StringBuilder rule = new StringBuilder("| --- |");
            for (final double target : TARGETS)
            {
                head.append(String.format(Locale.ROOT, " %s %% |", 100 * target));
                rule.append(" --- |");
            }
            out.println(head);
            out.println(rule);
            final List<Point> apbf = sweeps.getOrDefault("APBF by count", List.of());
            for (final Map.Entry<String, List<Point>> sweep : sweeps.entrySet())
            {
                final StringBuilder row = new StringBuilder("| " + sweep.getKey() + " |");
                for (final double target : TARGETS)
                {
                    final double bits = bitsAt(sweep.getValue(), target);
                    final double base = bitsAt(apbf, target);
                    row.append(Double.isNaN(bits) ? " beyond the sweep |" : String.format(Locale.ROOT,
                        " %.2f (%.2fx) |", bits, bits / base));
                }
                out.println(row);
            }
            double maxFnr = 0;
            for (final Point p : points)
            {
                maxFnr = Math.max(maxFnr, Double.isNaN(p.fnrWindow()) ? 0 : p.fnrWindow());
            }
            out.println();
            out.printf(Locale.ROOT, "Largest FNR within the window over every design and memory: %.3g.%n", maxFnr);
            out.println();
            out.println("Each design as its own sizing rule makes it for a target:");
            out.println();
            out.println("| design | bits per item | measured FPR | FNR in window | parameters |");
            out.println("| --- | --- | --- | --- | --- |");
            for (final Point p : sized)
            {
                out.printf(Locale.ROOT, "| %s | %.2f | %.5f | %.3g | %s |%n", p.label().substring(SIZED.length()),
                    p.bitsPerItem(), p.fpr(), p.fnrWindow(), p.parameters().replace("|", "/"));
            }
        }
        files.add(table);
        final XYChart chart = new XYChartBuilder().width(900).height(600)
            .title("Bits per item against measured FPR, one window guarantee (steady rate)")
            .xAxisTitle("measured false positive rate").yAxisTitle("bits per item (state bits / n)").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(13f));
        for (final Map.Entry<String, List<Point>> sweep : sweeps.entrySet())
        {
            final List<Double> x = new ArrayList<>();
            final List<Double> y = new ArrayList<>();
            for (final Point p : sweep.getValue())
            {
                if (p.fpr() > 0 && p.fpr() < 0.5)
                {
                    x.add(p.fpr());
                    y.add(p.bitsPerItem());
                }
            }
            if (!x.isEmpty())
            {
                chart.addSeries(sweep.getKey(), x, y).setMarker(SeriesMarkers.CIRCLE);
            }
        }
        final Map<String, List<Point>> byRule = new LinkedHashMap<>();
        for (final Point p : sized)
        {
            final String rest = p.label().substring(SIZED.length());
            byRule.computeIfAbsent("own sizing: " + rest.substring(rest.indexOf(": ") + 2), k -> new ArrayList<>())
                .add(p);
        }
        for (final Map.Entry<String, List<Point>> rule : byRule.entrySet())
        {
            final List<Double> x = new ArrayList<>();
            final List<Double> y = new ArrayList<>();
            for (final Point p : rule.getValue())
            {
                if (p.fpr() > 0)
                {
                    x.add(p.fpr());
                    y.add(p.bitsPerItem());
                }
            }
            if (!x.isEmpty())
            {
                chart.addSeries(rule.getKey(), x, y).setMarker(SeriesMarkers.DIAMOND)
                    .setLineStyle(org.knowm.xchart.style.lines.SeriesLines.NONE);
            }
        }
        final Path png = dir.resolve("bits-per-item-vs-fpr.png");
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        files.add(png);
        return files;
    }
}
