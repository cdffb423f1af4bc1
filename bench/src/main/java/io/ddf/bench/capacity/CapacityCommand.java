package io.ddf.bench.capacity;

import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.model.LoadPrediction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code ddf bench capacity}: what "capacity n, error ε" means for each filter a RedisBloom user could be given, at
 * n (default 10^7) and at 2n and 3n: memory, false positive rate, and which added items answer "absent" (all of
 * them, the oldest n, the newest n/2). The candidates: the QHT BF.RESERVE made before (the daemon's {@code Sizing}, restated in {@link #oldQhtSizing}), the
 * cheapest QHT that the occupancy model ({@link LoadPrediction#qht}) says forgets at most 0.1 % at n, fifo-bloom
 * with L = 2 (BF.RESERVE's default now) and L = 4, Guava's BloomFilter, and a model of RedisBloom's scaling filter.
 * Then the README's plot: FPR and FNR against items added, at a smaller n, for fifo-bloom, the RedisBloom model and
 * the old QHT. Writes {@code capacity-DATE.md} and PNGs into the output directory.
 */
@Command(name = "capacity", mixinStandardHelpOptions = true,
    description = "Capacity semantics: memory, FPR and forgotten items at 1x, 2x, 3x the capacity, and the plot.")
public final class CapacityCommand implements java.util.concurrent.Callable<Integer>
{
    /** The most a capacity filter may forget at its capacity (issue 12). */
    static final double MAX_FORGOTTEN = 0.001;

    @Option(names = "--capacity", defaultValue = "10000000", description = "n of the table (default ${DEFAULT-VALUE}).")
    private long capacity;

    @Option(names = "--error-rate", defaultValue = "0.01", description = "ε (default ${DEFAULT-VALUE}).")
    private double errorRate;

    @Option(names = "--probes", defaultValue = "1000000",
        description = "Never-added probes per checkpoint (default ${DEFAULT-VALUE}).")
    private long probes;

    @Option(names = "--plot-capacity", defaultValue = "100000",
        description = "n of the plot (default ${DEFAULT-VALUE}); 0 skips the plot.")
    private long plotCapacity;

    @Option(names = "--seed", defaultValue = "20261124", description = "Items' seed (default ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--out", defaultValue = "bench/results/capacity", description = "Output directory.")
    private Path out;

    @Option(names = "--check-file", description = "Instead: open this filter file (a daemon's, after "
        + "bench/capacity-daemon.sh added \"x0\" ... \"x<N-1>\") and print the fraction of those items absent "
        + "and the false positive rate over --probes items \"p0\" ... never added.")
    private Path checkFile;

    @Option(names = "--check-items", defaultValue = "10000000", description = "N of --check-file.")
    private long checkItems;

    @Override
    public Integer call() throws IOException
    {
        if (checkFile != null)
        {
            return checkFile();
        }
        Files.createDirectories(out);
        final String date = LocalDate.now(ZoneOffset.UTC).toString();
        final StringBuilder md = new StringBuilder();
        md.append("# Capacity semantics, ").append(date).append("\n\n")
            .append("`bin/ddf bench capacity --capacity ").append(capacity).append(" --error-rate ").append(errorRate)
            .append(" --probes ").append(probes).append(" --plot-capacity ").append(plotCapacity)
            .append(" --seed ").append(seed).append("` (one run). Distinct items; FPR over ").append(probes)
            .append(" never-added probes; 'absent' = the fraction of those added items that answer absent ")
            .append("(forgotten or evicted).\n\n");
        table(md, capacity);
        if (plotCapacity > 0)
        {
            plot(md, plotCapacity, date);
        }
        final Path file = out.resolve("capacity-" + date + ".md");
        Files.writeString(file, md.toString());
        System.out.print(md);
        System.out.println("wrote " + file);
        return 0;
    }

    private int checkFile()
    {
        try (io.ddf.engine.DuplicateFilter filter = Filters.open(checkFile))
        {
            long absent = 0;
            for (long i = 0; i < checkItems; i++)
            {
                absent += filter.contains("x" + i) ? 0 : 1;
            }
            long falsePositives = 0;
            for (long p = 0; p < probes; p++)
            {
                falsePositives += filter.contains("p" + p) ? 1 : 0;
            }
            System.out.printf(Locale.ROOT, "file_bytes %d%nitems %d%nabsent %d%nabsent_fraction %.6f%nprobes %d%n" +
                "false_positives %d%nfpr %.6f%n", checkFile.toFile().length(), checkItems, absent,
                (double)absent / checkItems, probes, falsePositives, (double)falsePositives / probes);
        }
        return 0;
    }

    private Map<String, Supplier<Candidate>> candidates(final long n, final boolean all)
    {
        final Map<String, Supplier<Candidate>> map = new LinkedHashMap<>();
        map.put("fifo-bloom L=2 (BF.RESERVE now)", () -> new DdfCandidate("fifo-bloom L=2 (BF.RESERVE now)",
            fifo(n, 2)));
        if (all)
        {
            map.put("fifo-bloom L=4", () -> new DdfCandidate("fifo-bloom L=4", fifo(n, 4)));
        }
        map.put("qht, BF.RESERVE before (Sizing)", () -> new DdfCandidate("qht, BF.RESERVE before (Sizing)",
            oldQhtSizing(n, errorRate)));
        if (all)
        {
            final FilterBuilder qht = cheapestQht(n);
            map.put("qht sized to forget <= 0.1 % at n", () -> new DdfCandidate("qht sized to forget <= 0.1 % at n",
                qht));
            map.put("Guava BloomFilter", () -> new GuavaCandidate(n, errorRate));
        }
        map.put("RedisBloom scaling (model, EXPANSION 2)", () -> new ScalingBloomModel(n, errorRate, 2));
        return map;
    }

    private FilterBuilder fifo(final long n, final int generations)
    {
        return Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", n).param("generations", (long)generations)
            .param("target-fpr", errorRate).seed(seed);
    }

    /**
     * The QHT of fewest table bytes that the occupancy model predicts forgets at most 0.1 % of n items with a
     * false positive rate at most ε, over k ∈ {1, 2, 4, 8, 16} and s ∈ 2..32.
     */
    private FilterBuilder cheapestQht(final long n)
    {
        FilterBuilder best = null;
        long bestBytes = Long.MAX_VALUE;
        for (final int k : new int[]{1, 2, 4, 8, 16})
        {
            for (int s = 2; s <= 32; s++)
            {
                if ((1L << s) - 1 <= k)
                {
                    continue;
                }
                long low = 1;
                long high = 64 * n;
                while (low < high)
                {
                    final long mid = (low + high) >>> 1;
                    if (LoadPrediction.qht(mid, k, s, n).fnr() <= MAX_FORGOTTEN)
                    {
                        high = mid;
                    }
                    else
                    {
                        low = mid + 1;
                    }
                }
                if (LoadPrediction.qht(low, k, s, n).fpr() > errorRate)
                {
                    continue;
                }
                final FilterBuilder builder = Filters.builder(FilterKind.QHT).rows(low).buckets(k).fingerprintBits(s)
                    .seed(seed);
                final long bytes = builder.parameters().tableBytes();
                if (bytes < bestBytes)
                {
                    bestBytes = bytes;
                    best = builder;
                }
            }
        }
        return best;
    }

    private void table(final StringBuilder md, final long n)
    {
        md.append("## At n = ").append(n).append(", ε = ").append(errorRate).append("\n\n")
            .append("| filter | MB at n | MB at 3n | bits/item at n | absent at n | FPR at n | FPR at 2n | FPR at 3n ")
            .append("| absent at 3n: all | oldest n | newest n/2 |\n")
            .append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (final Map.Entry<String, Supplier<Candidate>> e : candidates(n, true).entrySet())
        {
            System.err.println("capacity: " + e.getKey() + " ...");
            try (Candidate candidate = e.getValue().get())
            {
                final List<CapacityRun.Point> p = CapacityRun.run(candidate, n, new long[]{n, 2 * n, 3 * n}, probes,
                    seed);
                md.append(String.format(Locale.ROOT,
                    "| %s | %.2f | %.2f | %.2f | %s | %s | %s | %s | %s | %s | %s |%n", e.getKey(),
                    p.get(0).bytes() / 1e6, p.get(2).bytes() / 1e6, p.get(0).bytes() * 8.0 / n,
                    pct(p.get(0).fnr()), pct(p.get(0).fpr()), pct(p.get(1).fpr()), pct(p.get(2).fpr()),
                    pct(p.get(2).fnr()), pct(p.get(2).oldestAbsent()), pct(p.get(2).newestAbsent())));
            }
        }
        md.append("\n");
    }

    private void plot(final StringBuilder md, final long n, final String date) throws IOException
    {
        final int steps = 40;
        final long[] checkpoints = new long[steps];
        for (int i = 0; i < steps; i++)
        {
            checkpoints[i] = (i + 1) * 4 * n / steps;
        }
        final XYChart fpr = chart("False positive rate against items added (capacity " + n + ", error " + errorRate +
            ")", "items added / capacity", "FPR %");
        final XYChart fnr = chart("Added items answering absent (capacity " + n + ")", "items added / capacity",
            "absent % of the items added");
        final XYChart bytes = chart("Memory (capacity " + n + ")", "items added / capacity", "MB");
        md.append("## Against items added (n = ").append(n).append(")\n\n")
            .append("| filter | added/n | FPR % | absent % (all added) | absent % (oldest n) | MB |\n")
            .append("| --- | --- | --- | --- | --- | --- |\n");
        for (final Map.Entry<String, Supplier<Candidate>> e : candidates(n, false).entrySet())
        {
            try (Candidate candidate = e.getValue().get())
            {
                final List<CapacityRun.Point> points = CapacityRun.run(candidate, n, checkpoints, probes / 4, seed);
                final List<Double> x = new ArrayList<>();
                final List<Double> f = new ArrayList<>();
                final List<Double> a = new ArrayList<>();
                final List<Double> b = new ArrayList<>();
                for (final CapacityRun.Point p : points)
                {
                    x.add((double)p.added() / n);
                    f.add(100 * p.fpr());
                    a.add(100 * p.fnr());
                    b.add(p.bytes() / 1e6);
                    if (p.added() % n == 0)
                    {
                        md.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.3f | %.2f |%n", e.getKey(),
                            p.added() / n, 100 * p.fpr(), 100 * p.fnr(), 100 * p.oldestAbsent(), p.bytes() / 1e6));
                    }
                }
                fpr.addSeries(e.getKey(), x, f).setMarker(SeriesMarkers.NONE);
                fnr.addSeries(e.getKey(), x, a).setMarker(SeriesMarkers.NONE);
                bytes.addSeries(e.getKey(), x, b).setMarker(SeriesMarkers.NONE);
            }
        }
        final List<Double> target = List.of(100 * errorRate, 100 * errorRate);
        fpr.addSeries("target ε", List.of(0.0, 4.0), target).setMarker(SeriesMarkers.NONE);
        md.append("\n");
        for (final Map.Entry<String, XYChart> c : Map.of("fpr", fpr, "fnr", fnr, "memory", bytes).entrySet())
        {
            final String name = "capacity-" + c.getKey() + "-" + date;
            BitmapEncoder.saveBitmap(c.getValue(), out.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
            md.append("![").append(c.getKey()).append("](").append(name).append(".png)\n");
        }
        md.append("\n");
    }

    private static XYChart chart(final String title, final String x, final String y)
    {
        return new XYChartBuilder().width(900).height(520).title(title).xAxisTitle(x).yAxisTitle(y).build();
    }

    private static String pct(final double rate)
    {
        return String.format(Locale.ROOT, "%.3f %%", 100 * rate);
    }

    /**
     * The rule BF.RESERVE sized a QHT by before fifo-bloom (the daemon's {@code Sizing}, which bench cannot depend
     * on): two cells per element in rows of four, and the fewest fingerprint bits whose full-row false positive rate
     * 4 / (2^s - 1) is at most the error rate, widened to fill the row's 64-bit word.
     */
    static FilterBuilder oldQhtSizing(final long capacity, final double errorRate)
    {
        int s = 3;
        while ((1L << s) - 1 <= 4 || 4.0 / ((1L << s) - 1) > errorRate)
        {
            s++;
        }
        if (4 * s <= 64)
        {
            s = 64 / (4 * (64 / (4 * s))); // as many rows per word as fit, cells widened to fill it
        }
        return Filters.builder(FilterKind.QHT).rows((2 * capacity + 3) / 4).buckets(4).fingerprintBits(s);
    }
}
