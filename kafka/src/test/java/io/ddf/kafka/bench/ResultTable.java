package io.ddf.kafka.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The bench's table, in the form: one row per figure and guarantee, each application's median over the
 * rounds (each round's value in brackets), and each ddf variant's ratio to the baseline's (the RocksDB store, or the
 * window store): the median of the rounds' ratios (each round's in brackets), the runs of a round having run one
 * after the other, under about the same load.
 */
final class ResultTable
{
    private static final String ROCKSDB = "rocksdb";

    private final List<RunResult> results;
    private final List<String> apps;

    /**
     * @param results the runs.
     * @param apps    the applications, in the columns' order ("rocksdb" the RocksDB store, "windowstore..." the window
     *                store; those whose name starts with "ddf" ddf's).
     */
    ResultTable(final List<RunResult> results, final List<String> apps)
    {
        this.results = List.copyOf(results);
        this.apps = List.copyOf(apps);
    }

    private static boolean ddf(final String app)
    {
        return app.startsWith("ddf");
    }

    /** @return the first application that is not ddf's, the ratios' denominator (null if none). */
    private String baseline()
    {
        return apps.stream().filter(a -> !ddf(a)).findFirst().orElse(null);
    }

    private static String label(final String app)
    {
        return app.equals(ROCKSDB) ? "RocksDB store" : app.equals("windowstore") ? "window store" :
            app.equals("windowstore-refresh") ? "window store, refreshed by duplicates" : app;
    }

    private boolean windowed()
    {
        return results.stream().anyMatch(r -> r.passedRecords() >= 0);
    }

    /** @return the markdown table. */
    String markdown()
    {
        final StringBuilder s = new StringBuilder("|");
        final StringBuilder rule = new StringBuilder("| ---");
        for (final String app : apps)
        {
            s.append(" | ").append(label(app));
            rule.append(" | ---");
        }
        for (final String app : ddfApps())
        {
            s.append(" | ").append(app).append(" ÷ ").append(baseline().equals(ROCKSDB) ? "RocksDB" : label(baseline()));
            rule.append(" | ---");
        }
        s.append(" |\n").append(rule).append(" |\n");
        for (final String g : guarantees())
        {
            row(s, "records/s, " + g, g, RunResult::recordsPerSecond, "%.0f");
        }
        for (final String g : guarantees())
        {
            row(s, "CPU µs per input record (the application process; ratio: lower is ddf's gain), " + g, g,
                RunResult::cpuMicrosPerRecord, "%.2f");
        }
        for (final String g : guarantees())
        {
            row(s, "changelog bytes on the broker (before compaction), " + g, g, r -> r.changelogLogBytes(), "%.0f");
            row(s, "changelog records, " + g, g, r -> r.changelogRecords(), "%.0f");
            row(s, "changelog key+value bytes, " + g, g, r -> r.changelogKvBytes(), "%.0f");
        }
        for (final String g : guarantees())
        {
            row(s, "restore of a new instance from the " + g + " changelog, ms", g, r -> r.restoreMillis(), "%.0f");
            row(s, "restored records, " + g, g, r -> r.restoredRecords(), "%.0f");
            if (results.stream().anyMatch(r -> r.restoreCpuMillis() >= 0))
            {
                row(s, "CPU of the restoring instance, start to RUNNING (all threads), s, " + g, g,
                    r -> r.restoreCpuMillis() / 1e3, "%.1f");
            }
        }
        for (final String g : guarantees())
        {
            row(s, "peak RSS while processing, MB, " + g, g, r -> r.peakRssBytes() / 1e6, "%.0f");
            row(s, "peak RSS while restoring, MB, " + g, g, r -> r.restoreRssBytes() / 1e6, "%.0f");
        }
        for (final String g : guarantees())
        {
            row(s, "state on disk, MB, " + g, g, r -> r.stateBytes() / 1e6, "%.1f");
        }
        for (final String g : guarantees())
        {
            if (windowed())
            {
                row(s, "records output, " + g, g, r -> r.passedRecords(), "%.0f");
                row(s, "ids missing: records dropped although their id had not come out within W + W/L, " + g, g,
                    r -> r.missingIds(), "%.0f");
                row(s, "ids doubled inside the window: records output although their id came out less than W " +
                    "before (or output twice), " + g, g, r -> r.duplicatedIds(), "%.0f");
                row(s, "records dropped whose id came out between W and W + W/L before (ddf's promise leaves them " +
                    "free), " + g, g, r -> r.droppedAfterWindow(), "%.0f");
            }
            else
            {
                row(s, "missing ids, " + g, g, r -> r.missingIds(), "%.0f");
                row(s, "duplicated ids, " + g, g, r -> r.duplicatedIds(), "%.0f");
            }
        }
        return s.toString();
    }

    private List<String> guarantees()
    {
        return results.stream().map(RunResult::guarantee).distinct().collect(Collectors.toList());
    }

    private List<String> ddfApps()
    {
        return baseline() != null ? apps.stream().filter(ResultTable::ddf).collect(Collectors.toList()) : List.of();
    }

    private void row(final StringBuilder s, final String label, final String guarantee,
        final ToDoubleFunction<RunResult> figure, final String format)
    {
        s.append("| ").append(label);
        for (final String app : apps)
        {
            s.append(" | ").append(cell(values(guarantee, app, figure), format));
        }
        final List<Double> rocks = baseline() == null ? List.of() : values(guarantee, baseline(), figure);
        for (final String app : ddfApps())
        {
            final List<Double> ddf = values(guarantee, app, figure);
            final List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < Math.min(ddf.size(), rocks.size()); i++)
            {
                if (rocks.get(i) != 0)
                {
                    ratios.add(ddf.get(i) / rocks.get(i));
                }
            }
            s.append(" | ").append(cell(ratios, "%.2f"));
        }
        s.append(" |\n");
    }

    private static String cell(final List<Double> values, final String format)
    {
        if (values.isEmpty())
        {
            return "—";
        }
        final String median = String.format(Locale.ROOT, format, median(values));
        return values.size() == 1 ? median : median + " (" + values.stream()
            .map(v -> String.format(Locale.ROOT, format, v)).collect(Collectors.joining(", ")) + ")";
    }

    private List<Double> values(final String guarantee, final String app, final ToDoubleFunction<RunResult> figure)
    {
        final List<Double> values = new ArrayList<>();
        for (final RunResult r : results)
        {
            if (r.guarantee().equals(guarantee) && r.app().equals(app))
            {
                values.add(figure.applyAsDouble(r));
            }
        }
        return values;
    }

    private static double median(final List<Double> unsorted)
    {
        final List<Double> values = new ArrayList<>(unsorted);
        values.sort(Double::compare);
        final int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }
}
