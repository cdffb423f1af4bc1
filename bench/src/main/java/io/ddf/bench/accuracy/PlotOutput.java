package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.stream.StreamSpec;
import io.ddf.bench.accuracy.ConfigResult.Metric;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Draws PNG plots with XChart, headless: error rate ×100 against stream length (per stream, memory and window),
 * against memory (when several), against window (when several), and against L for queued filters (when several
 * L). The error is the windowed one for a filter judged against a window, the unbounded one otherwise. Unbounded
 * plots of a uniform stream also draw the lower bound of seed 001 Theorem 4; experiments that each run one window
 * on the same stream and memory also get one plot against the window across them.
 */
public final class PlotOutput
{
    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;
    /**
     * An experiment asking for this many checkpoints or more gets its error-against-length plots on a log x axis:
     * dense checkpoints only pay off there (seed 001 Fig. 2 spans three decades of stream length).
     */
    static final int LOG_LENGTH_CHECKPOINTS = 1000;

    private PlotOutput()
    {
    }

    /**
     * @param results the experiments' results.
     * @param dir     directory for the PNG files.
     * @return the files written.
     * @throws IOException when a file cannot be written.
     */
    public static List<Path> write(final List<ExperimentResult> results, final Path dir) throws IOException
    {
        System.setProperty("java.awt.headless", "true");
        final List<Path> files = new ArrayList<>();
        for (final ExperimentResult result : results)
        {
            final Experiment e = result.experiment();
            final String prefix = slug(e.stream().name());
            for (final long memory : e.memories())
            {
                for (final long window : e.windows())
                {
                    final XYChart chart = chart(title(e, "Error rate against stream length", memory, window, true),
                        "elements streamed", errorAxis(window), e.checkpoints() >= LOG_LENGTH_CHECKPOINTS);
                    long[] positions = null;
                    for (final ConfigResult c : result.configs())
                    {
                        if (c.failure() == null && matches(c, memory, window))
                        {
                            positions = c.positions();
                            final double[] x = new double[c.positions().length];
                            final double[] y = new double[x.length];
                            for (int j = 0; j < x.length; j++)
                            {
                                x[j] = c.positions()[j];
                                y[j] = 100 * c.mean()[j][metric(e, c).ordinal()];
                            }
                            add(chart, c.spec().label(), x, y, false);
                        }
                    }
                    if (window == 0 && positions != null)
                    {
                        addLowerBound(chart, e.stream(), memory, positions);
                    }
                    save(chart, dir.resolve(prefix + "-length-m" + memory + (window > 0 ? "-w" + window : "")),
                        files);
                }
            }
            if (e.memories().size() > 1)
            {
                for (final long window : e.windows())
                {
                    final XYChart chart = chart(title(e, "Error rate against memory", 0, window, false),
                        "memory (bits)", errorAxis(window), true);
                    for (final String label : MarkdownOutput.labels(List.of(result)))
                    {
                        final Map<Double, Double> points = new TreeMap<>();
                        for (final ConfigResult c : result.configs())
                        {
                            if (c.failure() == null && c.spec().label().equals(label) && c.spec().takesMemory() &&
                                matches(c, c.memoryBits(), window))
                            {
                                points.put((double)c.memoryBits(), 100 * c.end(metric(e, c)));
                            }
                        }
                        add(chart, label, points, true);
                    }
                    save(chart, dir.resolve(prefix + "-memory" + (window > 0 ? "-w" + window : "")), files);
                }
            }
            if (e.windows().size() > 1)
            {
                for (final long memory : e.memories())
                {
                    final XYChart chart = chart(title(e, "Windowed error rate against window", memory, 0, true),
                        "window w (elements)", errorAxis(1), true);
                    for (final String label : MarkdownOutput.labels(List.of(result)))
                    {
                        final Map<Double, Double> points = new TreeMap<>();
                        for (final ConfigResult c : result.configs())
                        {
                            if (c.failure() == null && c.spec().label().equals(label) && c.window() > 0 &&
                                (c.memoryBits() == memory || !c.spec().takesMemory()))
                            {
                                points.put((double)c.window(), 100 * c.end(Metric.ERROR_W));
                            }
                        }
                        add(chart, label, points, true);
                    }
                    save(chart, dir.resolve(prefix + "-window-m" + memory), files);
                }
            }
            writeAgainstL(result, dir, prefix, files);
        }
        writeAcrossWindows(results, dir, files);
        return files;
    }

    /**
     * Seed 001 Theorem 4 as a dashed line: no filter of M bits does better on a uniform stream (only for n &gt; M,
     * and nothing for other streams).
     */
    private static void addLowerBound(final XYChart chart, final StreamSpec stream, final long memory,
        final long[] positions)
    {
        final double[] x = new double[positions.length];
        final double[] y = new double[positions.length];
        for (int j = 0; j < positions.length; j++)
        {
            x[j] = positions[j];
            y[j] = 100 * LowerBoundLine.at(stream, memory, positions[j]);
        }
        add(chart, LowerBoundLine.LABEL, x, y, false);
        final XYSeries bound = chart.getSeriesMap().get(LowerBoundLine.LABEL);
        if (bound != null)
        {
            bound.setLineStyle(SeriesLines.DASH_DASH);
            bound.setLineColor(Color.GRAY);
        }
    }

    /**
     * Experiments on the same stream and memory that each run one window (a preset choosing its filters per window,
     * e.g. seed 001 Fig. 7's best L): windowed error against window across them, one series per filter label.
     */
    private static void writeAcrossWindows(final List<ExperimentResult> results, final Path dir,
        final List<Path> files) throws IOException
    {
        final Map<String, List<ExperimentResult>> groups = new LinkedHashMap<>();
        for (final ExperimentResult result : results)
        {
            final Experiment e = result.experiment();
            if (e.windows().size() == 1 && e.windows().get(0) > 0 && e.memories().size() == 1)
            {
                groups.computeIfAbsent(e.stream().name() + "|" + e.memories().get(0), k -> new ArrayList<>())
                    .add(result);
            }
        }
        for (final List<ExperimentResult> group : groups.values())
        {
            if (group.stream().map(r -> r.experiment().windows().get(0)).distinct().count() < 2)
            {
                continue;
            }
            final Experiment first = group.get(0).experiment();
            final long memory = first.memories().get(0);
            final XYChart chart = chart(String.format(Locale.ROOT, "Windowed error rate against window: %s, %,d " +
                "elements, M = %,d bits, %s", first.stream().name(), first.stream().length(), memory,
                runs(first.runs())), "window w (elements)", errorAxis(1), true);
            for (final String label : MarkdownOutput.labels(group))
            {
                final Map<Double, Double> points = new TreeMap<>();
                for (final ExperimentResult result : group)
                {
                    for (final ConfigResult c : result.configs())
                    {
                        if (c.failure() == null && c.spec().label().equals(label) && c.window() > 0)
                        {
                            points.put((double)c.window(), 100 * c.end(Metric.ERROR_W));
                        }
                    }
                }
                add(chart, label, points, true);
            }
            save(chart, dir.resolve(slug(first.stream().name()) + "-across-windows-m" + memory), files);
        }
    }

    /** Queued filters that differ only in L: error against L, one series per window. */
    private static void writeAgainstL(final ExperimentResult result, final Path dir, final String prefix,
        final List<Path> files) throws IOException
    {
        final Experiment e = result.experiment();
        final Map<String, List<ConfigResult>> groups = new LinkedHashMap<>();
        for (final ConfigResult c : result.configs())
        {
            if (c.failure() == null && c.spec().queued())
            {
                final Map<String, String> rest = new LinkedHashMap<>(c.spec().params());
                rest.remove("subfilters");
                groups.computeIfAbsent(new FilterSpec("", c.spec().kind(), rest).text() + "|" + c.memoryBits(),
                    k -> new ArrayList<>()).add(c);
            }
        }
        for (final Map.Entry<String, List<ConfigResult>> group : groups.entrySet())
        {
            final List<ConfigResult> configs = group.getValue();
            if (configs.stream().map(c -> c.spec().subfilters()).distinct().count() < 2)
            {
                continue;
            }
            final String base = group.getKey().substring(0, group.getKey().indexOf('|'));
            final long memory = configs.get(0).memoryBits();
            final XYChart chart = chart(String.format(Locale.ROOT, "Queued %s: windowed error against L (%s, M = %d)",
                base, e.stream().name(), memory), "subfilters L", errorAxis(1), false);
            final Map<Long, Map<Double, Double>> byWindow = new TreeMap<>();
            for (final ConfigResult c : configs)
            {
                byWindow.computeIfAbsent(c.window(), w -> new TreeMap<>())
                    .put((double)c.spec().subfilters(), 100 * c.end(metric(e, c)));
            }
            for (final Map.Entry<Long, Map<Double, Double>> series : byWindow.entrySet())
            {
                add(chart, "w = " + series.getKey(), series.getValue(), false);
            }
            save(chart, dir.resolve(prefix + "-L-" + slug(base) + "-m" + memory), files);
        }
    }

    /**
     * The windowed error when the experiment asks for windows, the unbounded one otherwise (a windowed kind in an
     * unbounded experiment is plotted on the same footing as the rest, as in the markdown's main table).
     */
    private static Metric metric(final Experiment e, final ConfigResult c)
    {
        return e.windows().get(0) > 0 && c.window() > 0 ? Metric.ERROR_W : Metric.ERROR;
    }

    private static boolean matches(final ConfigResult c, final long memory, final long window)
    {
        return (c.memoryBits() == memory || !c.spec().takesMemory()) &&
            (window == 0 || c.window() == window || c.spec().params().containsKey("window"));
    }

    private static String title(final Experiment e, final String what, final long memory, final long window,
        final boolean showMemory)
    {
        return String.format(Locale.ROOT, "%s: %s, %,d elements%s%s, %s", what, e.stream().name(),
            e.stream().length(), showMemory ? String.format(Locale.ROOT, ", M = %,d bits", memory) : "",
            window > 0 ? ", w = " + window : "", runs(e.runs()));
    }

    private static String runs(final int runs)
    {
        return runs == 1 ? "1 run" : runs + " runs";
    }

    private static String errorAxis(final long window)
    {
        return window > 0 ? "error rate x100 (FPR^w + FNR^w)" : "error rate x100 (FPR + FNR)";
    }

    private static XYChart chart(final String title, final String xTitle, final String yTitle, final boolean logX)
    {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle)
            .yAxisTitle(yTitle).build();
        chart.getStyler().setXAxisLogarithmic(logX);
        chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(13f));
        return chart;
    }

    private static void add(final XYChart chart, final String name, final Map<Double, Double> points,
        final boolean markers)
    {
        final double[] x = points.keySet().stream().mapToDouble(Double::doubleValue).toArray();
        final double[] y = points.values().stream().mapToDouble(Double::doubleValue).toArray();
        add(chart, name, x, y, markers || x.length < 12);
    }

    private static void add(final XYChart chart, final String name, final double[] x, final double[] y,
        final boolean markers)
    {
        final List<Double> xs = new ArrayList<>();
        final List<Double> ys = new ArrayList<>();
        for (int i = 0; i < x.length; i++)
        {
            // XChart cannot place NaN (a rate with no element to count yet).
            if (!Double.isNaN(y[i]))
            {
                xs.add(x[i]);
                ys.add(y[i]);
            }
        }
        if (!xs.isEmpty() && !chart.getSeriesMap().containsKey(name))
        {
            chart.addSeries(name, xs, ys).setMarker(markers ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
        }
    }

    private static void save(final XYChart chart, final Path file, final List<Path> files) throws IOException
    {
        if (chart.getSeriesMap().isEmpty())
        {
            return;
        }
        BitmapEncoder.saveBitmap(chart, file.toString() + ".png", BitmapEncoder.BitmapFormat.PNG);
        files.add(Path.of(file + ".png"));
    }

    /**
     * @param text a name.
     * @return it in lowercase with runs of anything but letters, digits and dots as one dash.
     */
    static String slug(final String text)
    {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]+", "-").replaceAll("(^-|-$)", "");
    }
}
