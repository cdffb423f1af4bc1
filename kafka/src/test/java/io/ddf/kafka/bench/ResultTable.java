package io.ddf.kafka.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The bench's table, in the form: one row per figure and guarantee, the two applications' medians over the
 * rounds (each round's value in brackets), and ddf's ratio to the RocksDB store's: the median of the rounds' ratios
 * (each round's in brackets), the two runs of a round having run one after the other, under about the same load.
 */
final class ResultTable
{
    private final List<RunResult> results;

    ResultTable(final List<RunResult> results)
    {
        this.results = List.copyOf(results);
    }

    /** @return the markdown table. */
    String markdown()
    {
        final StringBuilder s = new StringBuilder("| | ddf | RocksDB store | ddf ÷ RocksDB |\n| --- | --- | --- | --- |\n");
        for (final String g : guarantees())
        {
            row(s, "records/s, " + g, g, RunResult::recordsPerSecond, "%.0f");
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
            row(s, "missing ids, " + g, g, r -> r.missingIds(), "%.0f");
            row(s, "duplicated ids, " + g, g, r -> r.duplicatedIds(), "%.0f");
        }
        return s.toString();
    }

    private List<String> guarantees()
    {
        return results.stream().map(RunResult::guarantee).distinct().collect(Collectors.toList());
    }

    private void row(final StringBuilder s, final String label, final String guarantee,
        final ToDoubleFunction<RunResult> figure, final String format)
    {
        final List<Double> ddf = values(guarantee, "ddf", figure);
        final List<Double> rocks = values(guarantee, "rocksdb", figure);
        final List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(ddf.size(), rocks.size()); i++)
        {
            if (rocks.get(i) != 0)
            {
                ratios.add(ddf.get(i) / rocks.get(i));
            }
        }
        s.append("| ").append(label).append(" | ").append(cell(ddf, format)).append(" | ")
            .append(cell(rocks, format)).append(" | ").append(cell(ratios, "%.2f")).append(" |\n");
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
